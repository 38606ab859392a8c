import type { SpanOptions } from '@tis/sdk'
import type { WebVitals } from './vitals'

/** The fields of a `PerformanceNavigationTiming` entry the root span reads. */
export interface NavigationTimingLike {
  readonly startTime: number
  readonly responseStart: number
  readonly domInteractive?: number
  readonly domContentLoadedEventEnd?: number
  /** 0 until the `load` handlers have returned. */
  readonly loadEventEnd: number
  readonly type?: string
  readonly transferSize?: number
}

/** The fields of a `PerformanceResourceTiming` entry a resource span reads. */
export interface ResourceTimingLike {
  readonly name: string
  readonly initiatorType: string
  readonly startTime: number
  readonly duration: number
  readonly transferSize?: number
  readonly encodedBodySize?: number
  readonly decodedBodySize?: number
  /** HTTP status (Chromium 109+); 0 when unknown, e.g. cross-origin without Timing-Allow-Origin. */
  readonly responseStatus?: number
  readonly renderBlockingStatus?: string
}

/** Everything {@link buildPageLoadSpans} needs, read from `performance` by the caller. */
export interface PageLoadTimings {
  /** `performance.timeOrigin`: epoch milliseconds every entry time is relative to. */
  readonly timeOrigin: number
  readonly navigation: NavigationTimingLike | undefined
  readonly resources: readonly ResourceTimingLike[]
  /** `performance.now()` when the capture ends (the root's end before `load` has finished). */
  readonly now: number
  readonly vitals: WebVitals
}

/** What the spans are called and how many resources they keep. */
export interface PageLoadShape {
  readonly route: string
  /** The page's URL, for `context.request.url`. */
  readonly url?: string
  /** Keep this many of the slowest resources (0: none). */
  readonly maxResources: number
  readonly traceId: string
  readonly newSpanId: () => string
}

/** One span, ready for `client.captureSpan(name, durationMs, options)`. */
export interface PageLoadSpan {
  readonly name: string
  readonly durationMs: number
  readonly options: SpanOptions & { readonly startedAt: number }
}

// The SDK's own requests: they are the telemetry, not the page.
const SDK_REQUEST =
  /\/api\/v1\/(ingest_events|check_ins|deployments|mobile_ingest_tokens)(?:[?#]|$)/

/** True for a request the SDK itself made (any tis endpoint it posts to). */
export const isSdkRequest = (url: string): boolean => SDK_REQUEST.test(url)

// Query strings can carry tokens and make every URL unique: spans are named without them.
const withoutQuery = (url: string) => url.replace(/[?#].*$/, '')
const round = (value: number) => Math.round(value * 1000) / 1000

/**
 * The root span (kind `browser`, from Navigation Timing, with the web vitals in its context) and
 * one `resource` child per slowest resource fetched while the page loaded, root first. Times are
 * whole epoch milliseconds so that each child's ISO start and end lie within the root's.
 */
export function buildPageLoadSpans(timings: PageLoadTimings, shape: PageLoadShape): PageLoadSpan[] {
  const { timeOrigin, navigation: nav } = timings
  const rootStart = Math.floor(timeOrigin + (nav?.startTime ?? 0))
  const loadEnd = nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : timings.now
  const rootId = shape.newSpanId()
  const children: PageLoadSpan[] = timings.resources
    .filter((r) => r.startTime <= loadEnd && !isSdkRequest(r.name))
    .sort((a, b) => b.duration - a.duration)
    .slice(0, Math.max(0, Math.floor(shape.maxResources)))
    .map((r) => {
      const url = withoutQuery(r.name)
      return {
        name: url,
        durationMs: round(Math.max(0, r.duration)),
        options: {
          traceId: shape.traceId,
          spanId: shape.newSpanId(),
          parentSpanId: rootId,
          kind: 'resource',
          startedAt: Math.max(rootStart, Math.round(timeOrigin + r.startTime)),
          ...(r.responseStatus ? { status: r.responseStatus } : {}),
          context: {
            resource: {
              url,
              initiator_type: r.initiatorType,
              transfer_size: r.transferSize,
              encoded_body_size: r.encodedBodySize,
              decoded_body_size: r.decodedBodySize,
              render_blocking: r.renderBlockingStatus,
            },
          },
        },
      }
    })
  let rootEnd = Math.ceil(timeOrigin + loadEnd)
  for (const child of children) {
    rootEnd = Math.max(rootEnd, Math.ceil(child.options.startedAt + child.durationMs))
  }
  const root: PageLoadSpan = {
    name: shape.route,
    // A page load takes time: a zero-length root would be a clock artefact.
    durationMs: Math.max(1, rootEnd - rootStart),
    options: {
      traceId: shape.traceId,
      spanId: rootId,
      kind: 'browser',
      startedAt: rootStart,
      context: {
        transaction_name: shape.route,
        request: { method: 'GET', route: shape.route, url: shape.url && withoutQuery(shape.url) },
        navigation: nav && {
          type: nav.type,
          transfer_size: nav.transferSize,
          dom_interactive: nav.domInteractive && round(nav.domInteractive),
          dom_content_loaded: nav.domContentLoadedEventEnd && round(nav.domContentLoadedEventEnd),
          load_event_end: nav.loadEventEnd > 0 ? round(nav.loadEventEnd) : undefined,
          complete: nav.loadEventEnd > 0,
        },
        web_vitals: timings.vitals,
      },
    },
  }
  return [root, ...children]
}
