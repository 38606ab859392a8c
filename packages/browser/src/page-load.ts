import { type Client, generateSpanId, generateTraceId } from '@tis/sdk'
import { buildPageLoadSpans, type NavigationTimingLike, type ResourceTimingLike } from './spans'
import { observeWebVitals } from './vitals'

// Longest wait after `load` for the first contentful paint.
const PAINT_WAIT_MS = 1000

/** Options of {@link capturePageLoad}. */
export interface PageLoadOptions {
  /**
   * The page's route: the root span's name, `context.transaction_name` and
   * `context.request.route`. Pass the pattern (`/products/:id`), not the concrete path, so that
   * loads of one page group together. @default location.pathname
   */
  readonly route?: string
  /** Send the slowest resources (scripts, styles, images, fetches) as child spans. @default true */
  readonly includeResources?: boolean
  /** Most resource spans sent (the slowest ones). @default 10 */
  readonly maxResources?: number
}

/**
 * Captures the current page load as one trace: a root span of kind `browser` from Navigation
 * Timing (start at `performance.timeOrigin`, end at the end of `load`) with the web vitals the
 * browser provides in `context.web_vitals`, and `resource` child spans for the slowest
 * resources, excluding the SDK's own requests. It waits for `load`, or captures what there is
 * when the page is hidden first (`pagehide`); called after `load`, it captures at once. When
 * `load` comes before the first contentful paint, it waits up to a second for that paint.
 * Outside a browser it does nothing. Never throws.
 *
 * @returns a function that cancels the capture if it has not happened yet
 */
export function capturePageLoad(client: Client, options: PageLoadOptions = {}): () => void {
  const win = globalThis as typeof globalThis & Partial<Window>
  const perf = win.performance
  if (!win.document || !win.addEventListener || typeof perf?.getEntriesByType !== 'function') {
    return () => {}
  }
  const vitals = observeWebVitals()
  let timer: ReturnType<typeof setTimeout> | undefined
  let done = false

  const stop = () => {
    done = true
    clearTimeout(timer)
    win.removeEventListener?.('load', onLoad)
    win.removeEventListener?.('pagehide', capture, { capture: true })
    vitals.stop()
  }
  function capture(event?: Event) {
    if (done) return
    try {
      const navigation = perf.getEntriesByType('navigation')[0] as NavigationTimingLike | undefined
      const spans = buildPageLoadSpans(
        {
          timeOrigin: perf.timeOrigin,
          navigation,
          resources:
            options.includeResources === false
              ? []
              : (perf.getEntriesByType('resource') as unknown as ResourceTimingLike[]),
          now: perf.now(),
          vitals: vitals.read(navigation),
        },
        {
          route: options.route ?? win.location?.pathname ?? '/',
          url: win.location?.href,
          maxResources: options.maxResources ?? 10,
          traceId: generateTraceId(),
          newSpanId: generateSpanId,
        },
      )
      for (const span of spans) client.captureSpan(span.name, span.durationMs, span.options)
      // The page is going away: start every queued span now (one batch request, keepalive).
      if (event?.type === 'pagehide') void client.flush(2000, { urgent: true })
    } catch {
      // Telemetry must never break the page; captureSpan itself reports through `debug`.
    }
    stop()
  }
  // `loadEventEnd` is set only once every `load` handler has returned. A page can fire `load`
  // before its first paint (a busy machine, a fast page): wait for it, briefly (a hidden page
  // never paints).
  function onLoad() {
    const deadline = perf.now() + PAINT_WAIT_MS
    const tick = () => {
      if (vitals.painted() || perf.now() >= deadline) capture()
      else timer = setTimeout(tick, 50)
    }
    timer = setTimeout(tick, 0)
  }

  if (win.document.readyState === 'complete') onLoad()
  else win.addEventListener('load', onLoad, { once: true })
  // On pagehide the capture flushes urgently itself, whichever listener runs first.
  win.addEventListener('pagehide', capture, { capture: true })
  return stop
}
