/**
 * Web vitals of a page load, as far as the browser provides them. Times are milliseconds since
 * the navigation started; `cls` is the unitless layout-shift score.
 */
export interface WebVitals {
  /** Time to first byte: when the first byte of the document's response arrived. */
  ttfb?: number
  /** First contentful paint. */
  fcp?: number
  /** Largest contentful paint (so far: the capture happens at `load`). */
  lcp?: number
  /** Cumulative layout shift: the largest session window of unexpected shifts. */
  cls?: number
  /** Interaction to next paint, when the user interacted before the capture. */
  inp?: number
}

/** The fields of a `layout-shift` entry that CLS reads. */
export interface LayoutShiftLike {
  readonly startTime: number
  readonly value: number
  readonly hadRecentInput: boolean
}

/** The fields of an `event` timing entry that INP reads. */
export interface EventTimingLike {
  readonly duration: number
  readonly interactionId?: number
}

/**
 * CLS as web.dev defines it: shifts not caused by input, grouped in session windows (gaps under
 * 1 s, at most 5 s long); the score is the largest window's sum.
 */
export function cumulativeLayoutShift(shifts: readonly LayoutShiftLike[]): number {
  let best = 0
  let sum = 0
  let first = 0
  let last = 0
  for (const shift of shifts) {
    if (shift.hadRecentInput) continue
    if (sum > 0 && shift.startTime - last < 1000 && shift.startTime - first < 5000) {
      sum += shift.value
    } else {
      sum = shift.value
      first = shift.startTime
    }
    last = shift.startTime
    best = Math.max(best, sum)
  }
  return Math.round(best * 1e4) / 1e4
}

/**
 * INP: the longest interaction, skipping one outlier per 50 interactions (the 98th percentile);
 * `undefined` without interactions. An interaction's duration is its slowest event's.
 */
export function interactionToNextPaint(events: readonly EventTimingLike[]): number | undefined {
  const longest = new Map<number, number>()
  for (const { interactionId, duration } of events) {
    if (!interactionId) continue
    longest.set(interactionId, Math.max(longest.get(interactionId) ?? 0, duration))
  }
  const durations = [...longest.values()].sort((a, b) => b - a)
  return durations[Math.min(durations.length - 1, Math.floor(durations.length / 50))]
}

/** The vitals the observers collect; `read` adds TTFB from the navigation entry. */
export interface VitalsObserver {
  read(navigation?: { readonly startTime: number; readonly responseStart: number }): WebVitals
  /** Whether the first contentful paint is known, or can never be (no paint timing). */
  painted(): boolean
  stop(): void
}

const ms = (value: number) => Math.round(value * 10) / 10

/**
 * Observes paint, LCP, layout-shift and event entries (buffered, so entries from before the call
 * count). Entry types the browser does not support are left out of the vitals.
 */
export function observeWebVitals(): VitalsObserver {
  const entries: Record<string, PerformanceEntry[]> = {}
  const observers: PerformanceObserver[] = []
  const supported = globalThis.PerformanceObserver?.supportedEntryTypes ?? []
  for (const type of ['paint', 'largest-contentful-paint', 'layout-shift', 'event']) {
    if (!supported.includes(type)) continue
    const list: PerformanceEntry[] = []
    entries[type] = list
    try {
      const observer = new PerformanceObserver((batch) => list.push(...batch.getEntries()))
      observer.observe({ type, buffered: true, durationThreshold: 40 } as PerformanceObserverInit)
      observers.push(observer)
    } catch {
      delete entries[type]
    }
  }
  // Entries the observers have not been called back with yet.
  const takePending = () => {
    for (const observer of observers) {
      const pending = observer.takeRecords()
      for (const entry of pending) entries[entry.entryType]?.push(entry)
    }
  }
  return {
    painted() {
      if (!entries['paint']) return true
      takePending()
      return entries['paint'].some((e) => e.name === 'first-contentful-paint')
    },
    read(navigation) {
      takePending()
      const vitals: WebVitals = {}
      if (navigation && navigation.responseStart > 0) {
        vitals.ttfb = ms(Math.max(0, navigation.responseStart - navigation.startTime))
      }
      const fcp = entries['paint']?.find((e) => e.name === 'first-contentful-paint')
      if (fcp) vitals.fcp = ms(fcp.startTime)
      const lcp = entries['largest-contentful-paint']?.at(-1)
      if (lcp) vitals.lcp = ms(lcp.startTime)
      const shifts = entries['layout-shift']
      if (shifts) vitals.cls = cumulativeLayoutShift(shifts as unknown as LayoutShiftLike[])
      const inp = interactionToNextPaint((entries['event'] ?? []) as unknown as EventTimingLike[])
      if (inp !== undefined) vitals.inp = ms(inp)
      return vitals
    },
    stop() {
      for (const observer of observers) observer.disconnect()
    },
  }
}
