import { describe, expect, it } from 'vitest'
import {
  buildPageLoadSpans,
  isSdkRequest,
  type NavigationTimingLike,
  type PageLoadShape,
  type ResourceTimingLike,
} from './spans'

const ORIGIN = 1_790_000_000_123.456
const NAV: NavigationTimingLike = {
  startTime: 0,
  responseStart: 42.5,
  domInteractive: 180.25,
  domContentLoadedEventEnd: 190.5,
  loadEventEnd: 350.75,
  type: 'navigate',
  transferSize: 2048,
}

const resource = (name: string, startTime: number, duration: number, extra = {}) =>
  ({ name, initiatorType: 'img', startTime, duration, ...extra }) as ResourceTimingLike

function shape(overrides: Partial<PageLoadShape> = {}): PageLoadShape {
  let n = 0
  return {
    route: '/products/:id',
    url: 'https://shop.example/products/7?utm=x',
    maxResources: 10,
    traceId: 'a'.repeat(32),
    newSpanId: () => String(++n).padStart(16, '0'),
    ...overrides,
  }
}

const build = (resources: ResourceTimingLike[], s = shape(), navigation = NAV, now = 400) =>
  buildPageLoadSpans({ timeOrigin: ORIGIN, navigation, resources, now, vitals: {} }, s)

describe('buildPageLoadSpans', () => {
  it('builds the browser root from Navigation Timing, anchored to timeOrigin', () => {
    const [root, ...children] = build([], shape(), NAV)
    expect(children).toEqual([])
    expect(root).toMatchObject({
      name: '/products/:id',
      durationMs: 352,
      options: {
        traceId: 'a'.repeat(32),
        spanId: '0000000000000001',
        kind: 'browser',
        startedAt: Math.floor(ORIGIN),
        context: {
          transaction_name: '/products/:id',
          request: {
            method: 'GET',
            route: '/products/:id',
            url: 'https://shop.example/products/7',
          },
          navigation: { type: 'navigate', load_event_end: 350.75, complete: true },
        },
      },
    })
    expect(root!.options.parentSpanId).toBeUndefined()
  })

  it('keeps the slowest maxResources resources as resource children of the root', () => {
    const spans = build(
      [
        resource('https://shop.example/a.css', 10, 5),
        resource('https://shop.example/b.js?v=3', 12, 80, { responseStatus: 200 }),
        resource('https://shop.example/c.png', 20, 30),
        resource('https://shop.example/favicon.ico', 300, 2, { responseStatus: 404 }),
      ],
      shape({ maxResources: 2 }),
    )
    expect(spans.map((s) => s.name)).toEqual([
      '/products/:id',
      'https://shop.example/b.js',
      'https://shop.example/c.png',
    ])
    const [root, slowest] = spans
    expect(slowest!.options).toMatchObject({
      kind: 'resource',
      parentSpanId: root!.options.spanId,
      traceId: root!.options.traceId,
      status: 200,
      startedAt: Math.round(ORIGIN + 12),
      context: { resource: { url: 'https://shop.example/b.js', initiator_type: 'img' } },
    })
    expect(slowest!.durationMs).toBe(80)
  })

  it.each([
    ['ingest', 'https://tis.example/api/v1/ingest_events', true],
    ['check-ins', 'https://tis.example/base/api/v1/check_ins', true],
    ['a page API', 'https://shop.example/api/v1/products', false],
    ['an image', 'https://shop.example/ingest_events.png', false],
  ])('isSdkRequest: %s', (_, url, expected) => {
    expect(isSdkRequest(url)).toBe(expected)
  })

  it("leaves out the SDK's own requests and resources started after the load", () => {
    const spans = build([
      resource('https://tis.example/api/v1/ingest_events', 5, 500),
      resource('https://shop.example/late.png', 360, 10),
      resource('https://shop.example/a.css', 10, 5),
    ])
    expect(spans.map((s) => s.name)).toEqual(['/products/:id', 'https://shop.example/a.css'])
  })

  it('sends no children with maxResources 0 (or a negative one)', () => {
    expect(build([resource('https://x/a.js', 1, 1)], shape({ maxResources: 0 }))).toHaveLength(1)
    expect(build([resource('https://x/a.js', 1, 1)], shape({ maxResources: -3 }))).toHaveLength(1)
  })

  it('stretches the root to cover a child that ends after loadEventEnd', () => {
    const [root, child] = build([resource('https://shop.example/slow.js', 300.4, 120.3)])
    const rootEnd = root!.options.startedAt + root!.durationMs
    expect(child!.options.startedAt).toBeGreaterThanOrEqual(root!.options.startedAt)
    expect(child!.options.startedAt + child!.durationMs).toBeLessThanOrEqual(rootEnd)
  })

  it('ends the root at `now` when the page is hidden before load finished', () => {
    const [root] = build([], shape(), { ...NAV, loadEventEnd: 0 }, 250.2)
    expect(root!.durationMs).toBe(Math.ceil(ORIGIN + 250.2) - Math.floor(ORIGIN))
    expect(root!.options.context).toMatchObject({ navigation: { complete: false } })
  })

  it('has a positive root duration without a navigation entry', () => {
    const [root] = buildPageLoadSpans(
      { timeOrigin: ORIGIN, navigation: undefined, resources: [], now: 0, vitals: {} },
      shape(),
    )
    expect(root!.durationMs).toBeGreaterThan(0)
  })

  it('puts the web vitals in the root context only', () => {
    const vitals = { ttfb: 42.5, fcp: 120, lcp: 200, cls: 0.01 }
    const [root, child] = buildPageLoadSpans(
      { timeOrigin: ORIGIN, navigation: NAV, resources: [resource('x', 1, 1)], now: 0, vitals },
      shape(),
    )
    expect(root!.options.context).toMatchObject({ web_vitals: vitals })
    expect(child!.options.context).not.toHaveProperty('web_vitals')
  })
})
