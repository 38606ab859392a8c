import type { Client } from '@tis/sdk'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { capturePageLoad } from './page-load'

// A minimal window: listeners, a document, location and a performance timeline with fake entries.
function fakeWindow(readyState: DocumentReadyState) {
  const listeners = new Map<string, Set<() => void>>()
  const navigation = { startTime: 0, responseStart: 20, loadEventEnd: 0, type: 'navigate' }
  const resources = [
    { name: 'https://shop.example/app.js', initiatorType: 'script', startTime: 5, duration: 50 },
    {
      name: 'https://tis.example/api/v1/ingest_events',
      initiatorType: 'fetch',
      startTime: 6,
      duration: 90,
    },
  ]
  vi.stubGlobal('document', { readyState })
  vi.stubGlobal('location', { pathname: '/checkout', href: 'https://shop.example/checkout' })
  vi.stubGlobal('addEventListener', (type: string, fn: () => void) => {
    listeners.set(type, (listeners.get(type) ?? new Set()).add(fn))
  })
  vi.stubGlobal('removeEventListener', (type: string, fn: () => void) => {
    listeners.get(type)?.delete(fn)
  })
  vi.stubGlobal('performance', {
    timeOrigin: 1_790_000_000_000,
    now: () => 120,
    getEntriesByType: (type: string) => (type === 'navigation' ? [navigation] : resources),
  })
  return {
    navigation,
    dispatch: (type: string) => {
      for (const fn of [...(listeners.get(type) ?? [])]) fn()
    },
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  }
}

function fakeClient() {
  const spans: { name: string; durationMs: number; options: Record<string, unknown> }[] = []
  const client = {
    captureSpan: (name: string, durationMs: number, options: Record<string, unknown>) => {
      spans.push({ name, durationMs, options })
      return 'id'
    },
  } as unknown as Client
  return { client, spans }
}

describe('capturePageLoad', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('waits for load, then sends the root and resource spans and removes its listeners', () => {
    const page = fakeWindow('loading')
    const { client, spans } = fakeClient()
    capturePageLoad(client)
    expect(spans).toEqual([])
    page.navigation.loadEventEnd = 100
    page.dispatch('load')
    vi.runAllTimers()
    expect(spans.map((s) => [s.name, s.options['kind']])).toEqual([
      ['/checkout', 'browser'],
      ['https://shop.example/app.js', 'resource'],
    ])
    expect(spans[0]!.durationMs).toBe(100)
    expect(spans[0]!.options['context']).toMatchObject({ web_vitals: { ttfb: 20 } })
    expect(page.listenerCount()).toBe(0)
  })

  it('captures at once (next tick) when the page has already loaded', () => {
    const page = fakeWindow('complete')
    page.navigation.loadEventEnd = 100
    const { client, spans } = fakeClient()
    capturePageLoad(client, { route: '/c/:step', includeResources: false })
    vi.runAllTimers()
    expect(spans.map((s) => s.name)).toEqual(['/c/:step'])
  })

  it('captures what there is on pagehide before load, once', () => {
    const page = fakeWindow('interactive')
    const { client, spans } = fakeClient()
    capturePageLoad(client, { maxResources: 0 })
    page.dispatch('pagehide')
    page.dispatch('load')
    vi.runAllTimers()
    expect(spans).toHaveLength(1)
    expect(spans[0]!.durationMs).toBe(120)
  })

  it('sends nothing once cancelled, and nothing outside a browser', () => {
    const page = fakeWindow('loading')
    const { client, spans } = fakeClient()
    capturePageLoad(client)()
    page.dispatch('load')
    vi.runAllTimers()
    vi.unstubAllGlobals()
    capturePageLoad(client)()
    expect(spans).toEqual([])
  })

  it('never throws into the page when the client does', () => {
    const page = fakeWindow('loading')
    capturePageLoad({
      captureSpan: () => {
        throw new Error('broken client')
      },
    } as unknown as Client)
    page.dispatch('load')
    expect(() => vi.runAllTimers()).not.toThrow()
  })

  describe('when load comes before the first paint', () => {
    // A paint timeline that shows first-contentful-paint once `paintAt` has passed.
    function paintTimeline(paintAt: number | null) {
      const fcp = { entryType: 'paint', name: 'first-contentful-paint', startTime: 250 }
      class FakeObserver {
        static supportedEntryTypes = ['paint']
        private seen = false
        observe() {}
        disconnect() {}
        takeRecords() {
          if (this.seen || paintAt === null || Date.now() < paintAt) return []
          this.seen = true
          return [fcp]
        }
      }
      vi.stubGlobal('PerformanceObserver', FakeObserver)
    }

    it.each([
      ['waits for the paint, then sends its FCP', 300, 200, { fcp: 250 }],
      ['captures without FCP after a second when the page never paints', null, 900, {}],
    ] as const)('%s', (_, paintAfter, quietMs, vitals) => {
      const page = fakeWindow('loading')
      const loadAt = Date.now()
      paintTimeline(paintAfter === null ? null : loadAt + paintAfter)
      vi.stubGlobal('performance', { ...performance, now: () => Date.now() - loadAt })
      const { client, spans } = fakeClient()
      capturePageLoad(client, { includeResources: false })
      page.navigation.loadEventEnd = 100
      page.dispatch('load')
      vi.advanceTimersByTime(quietMs)
      expect(spans).toEqual([])
      vi.advanceTimersByTime(200)
      expect(spans).toHaveLength(1)
      const context = spans[0]!.options['context'] as { web_vitals: Record<string, number> }
      expect(context.web_vitals).toEqual({ ttfb: 20, ...vitals })
    })
  })
})
