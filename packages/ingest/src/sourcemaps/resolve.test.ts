import { type NormalizedEvent, parseEventEnvelope } from '@tis/schema'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type Build,
  build,
  errorOp,
  framesOfRun,
  MemoryLookup,
  sentryEvent,
} from '../../test/sourcemap-fixtures'
import { createSourceMapResolver } from './resolve'

// The resolver on real esbuild bundles, real V8 stacks and the real Sentry mapping; the
// lookup is the in-memory port (storage is tested with the storage adapter).

const CHECKOUT = [
  'export function explode(input) {',
  "  const v = input + '!'",
  "  throw new Error('boom ' + v)",
  '}',
  '',
].join('\n')
const MAIN = [
  "import { explode } from './checkout.js'",
  'function main(input) {',
  '  explode(input)',
  '}',
  "globalThis.__run = () => main('x')",
  '',
].join('\n')
const SOURCES = { '/app/src/main.js': MAIN, '/app/src/checkout.js': CHECKOUT }
const URL = 'https://shop.example/assets/app.min.js'
const ID = 'f6252536-61a8-5fd0-8deb-93c12ba4ecc7'
const P = 'p1'

type Frames = Record<string, unknown>[]
const framesOf = (e: NormalizedEvent) => (e.context['exception'] as { frames: Frames }).frames

let app: Build
beforeAll(async () => {
  app = await build(SOURCES)
})

const withDebugId = (lookup: MemoryLookup, b: Build, id = ID) =>
  lookup.add([
    { url: '~/assets/app.min.js', type: 'minified_source', content: b.js, debugId: id },
    { url: '~/assets/app.min.js.map', type: 'source_map', content: b.map, debugId: id },
  ])

describe('createSourceMapResolver: the projection enricher', () => {
  it('resolves by debug ID: original place, caller naming, context, raw and the marker', async () => {
    const lookup = new MemoryLookup()
    const bundle = withDebugId(lookup, app)
    const sent = framesOfRun([{ url: URL, js: app.js }])
    const op = errorOp(P, sentryEvent(sent, { images: [{ code_file: URL, debug_id: ID }] }))
    const resolver = createSourceMapResolver()
    const [out] = await resolver.enrich([op], lookup)
    const frames = framesOf(out?.type === 'event' ? out.event : op.event)
    expect(frames).toHaveLength(3)
    expect(frames[0]).toMatchObject({
      function: 'explode',
      filename: '../src/checkout.js',
      abs_path: 'https://shop.example/src/checkout.js',
      lineno: 3,
      colno: 9,
      in_app: true,
      context_line: "  throw new Error('boom ' + v)",
      pre_context: ['export function explode(input) {', "  const v = input + '!'"],
      post_context: ['}', ''],
      sourcemap: { resolved: true, with: 'debug_id', debug_id: ID, map: '~/assets/app.min.js.map' },
    })
    expect(frames[0]?.['raw']).toEqual(framesOf(op.event)[0])
    expect(frames[1]).toMatchObject({ function: 'main', filename: '../src/main.js', lineno: 3 })
    // The outermost frame has no caller: no name, and never the minified one.
    expect(frames[2]).toMatchObject({ filename: '../src/main.js', lineno: 5 })
    expect(frames[2]).not.toHaveProperty('function')
    expect(lookup.calls.map((c) => c.method)).toEqual([
      'findArtifactsByDebugId',
      'readArtifacts',
      'touchArtifactBundles',
    ])
    expect(lookup.calls[2]?.args[0]).toEqual([bundle])
    // The next round finds the map parsed in the cache.
    await resolver.enrich([errorOp(P, op.event)], lookup)
    expect(lookup.count('readArtifacts')).toBe(1)
    expect(resolver.cacheStats()).toMatchObject({ entries: 1, hits: 1, misses: 1 })
  })

  it('regroups a stack-derived fingerprint by the resolved frames, never a user one', async () => {
    const lookup = new MemoryLookup()
    withDebugId(lookup, app)
    const sent = framesOfRun([{ url: URL, js: app.js }])
    const images = [{ code_file: URL, debug_id: ID }]
    const op = errorOp(P, sentryEvent(sent, { images }))
    const [out] = await createSourceMapResolver().enrich([op], lookup)
    if (out?.type !== 'event') throw new Error('not an event op')
    expect(out.event.fingerprint).toBe(
      "Error explode@../src/checkout.js main@../src/main.js ../src/main.js:globalThis.__run = () => main('x')",
    )
    expect(out.issue?.key).toBe(`fingerprint:${out.event.fingerprint}`)
    const custom = errorOp(P, { ...op.event, fingerprint: 'checkout' })
    const [kept] = await createSourceMapResolver().enrich([custom], lookup)
    if (kept?.type !== 'event') throw new Error('not an event op')
    expect(kept.event.fingerprint).toBe('checkout')
    expect(kept.issue).toBe(custom.issue)
  })

  it('resolves by release and URL: query and fragment dropped, ~/path, the sourcemap header', async () => {
    const lookup = new MemoryLookup()
    lookup.add(
      [
        {
          url: '~/assets/app.min.js',
          type: 'minified_source',
          content: app.js,
          headers: { sourcemap: 'app.min.js.map' },
        },
        { url: '~/assets/app.min.js.map', type: 'source_map', content: app.map },
      ],
      '1.2.0',
    )
    const sent = framesOfRun([{ url: `${URL}?v=3#top`, js: app.js }])
    const op = errorOp(P, sentryEvent(sent, { release: '1.2.0' }))
    const [out] = await createSourceMapResolver().enrich([op], lookup)
    const frames = framesOf(out?.type === 'event' ? out.event : op.event)
    expect(frames[0]).toMatchObject({
      function: 'explode',
      lineno: 3,
      sourcemap: { resolved: true, with: 'release', map: '~/assets/app.min.js.map' },
    })
    expect(lookup.calls[0]).toEqual({
      method: 'findArtifactsByUrl',
      args: [
        P,
        '1.2.0',
        null,
        [`${URL}?v=3`, URL, '~/assets/app.min.js?v=3', '~/assets/app.min.js'],
      ],
    })
  })

  it('follows a sourceMappingURL comment, relative or inline (data:), and keeps dists apart', async () => {
    const inline = await build(SOURCES, { sourcemap: 'inline' })
    const lookup = new MemoryLookup()
    lookup.add(
      [
        {
          url: '~/a/app.min.js',
          type: 'minified_source',
          content: `${app.js}//# sourceMappingURL=../maps/app.js.map\n`,
        },
        { url: '~/maps/app.js.map', type: 'source_map', content: app.map },
        { url: '~/b/app.min.js', type: 'minified_source', content: inline.js },
      ],
      '2.0.0',
      'web',
    )
    const resolver = createSourceMapResolver()
    const resolve = async (url: string, js: string, dist?: string) => {
      const sent = framesOfRun([{ url, js }])
      const e = sentryEvent(sent, { release: '2.0.0', ...(dist ? { dist } : {}) })
      return framesOf(await resolver.resolveEvent(P, e, lookup))[0]
    }
    expect(await resolve('https://x.example/a/app.min.js', app.js, 'web')).toMatchObject({
      function: 'explode',
      sourcemap: { resolved: true, map: '~/maps/app.js.map' },
    })
    expect(await resolve('https://x.example/b/app.min.js', inline.js, 'web')).toMatchObject({
      function: 'explode',
      lineno: 3,
      sourcemap: { resolved: true, map: '~/b/app.min.js (inline)' },
    })
    // Without a dist the event matches only files uploaded without one: none here, and with no
    // debug ID sent either, the frame is left as sent (no "no source map" on code nobody maps).
    const unmapped = await resolve('https://x.example/a/app.min.js', app.js)
    expect(unmapped).toMatchObject({ filename: 'https://x.example/a/app.min.js' })
    expect(unmapped).not.toHaveProperty('sourcemap')
  })

  it("resolves a native tis event's frames (the @tis/sdk shape) by release and URL", async () => {
    const lookup = new MemoryLookup()
    lookup.add(
      [
        {
          url: '~/assets/app.min.js',
          type: 'minified_source',
          content: app.js,
          headers: { sourcemap: 'app.min.js.map' },
        },
        { url: '~/assets/app.min.js.map', type: 'source_map', content: app.map },
      ],
      'web@4',
    )
    const frames = framesOfRun([{ url: URL, js: app.js }]).map(({ in_app: _, ...f }) => f)
    const parsed = parseEventEnvelope({
      event: {
        event_type: 'error',
        message: 'Error: boom x!',
        release: 'web@4',
        context: { exception: { class: 'Error', message: 'boom x!', frames } },
      },
    })
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    const out = framesOf(await createSourceMapResolver().resolveEvent(P, parsed.value, lookup))
    expect(out[0]).toMatchObject({ function: 'explode', lineno: 3, in_app: true, raw: frames[0] })
  })

  it('says why a frame is not resolved, and leaves other frames and ops as they were', async () => {
    const lookup = new MemoryLookup()
    const sent = framesOfRun([{ url: URL, js: app.js }])
    const byId = sentryEvent(sent, { images: [{ code_file: URL, debug_id: ID }] })
    const resolver = createSourceMapResolver()
    const [frame] = framesOf(await resolver.resolveEvent(P, byId, lookup))
    expect(frame).toMatchObject({
      function: sent[0]?.function,
      lineno: sent[0]?.lineno,
      sourcemap: { resolved: false, problem: `no source map uploaded with debug ID ${ID}` },
    })
    withDebugId(lookup, app)
    const zero = sentryEvent([{ ...(sent[0] as (typeof sent)[0]), lineno: 0 }], {
      images: [{ code_file: URL, debug_id: ID }],
    })
    const [uncovered] = framesOf(await resolver.resolveEvent(P, zero, lookup))
    expect(uncovered?.['sourcemap']).toEqual({
      resolved: false,
      problem: 'line 0 is outside the map',
    })
    // Code its map does not cover is no part of the app (and so of no stack fingerprint).
    expect(uncovered?.['in_app']).toBe(false)
    const native = sentryEvent([
      { filename: 'node:internal/x', function: 'f', lineno: 1, colno: 1, in_app: false },
    ])
    expect(await resolver.resolveEvent(P, native, lookup)).toBe(native)
    const ops = [errorOp(P, native), { ...errorOp(P, native), type: 'span' as const }]
    const out = await resolver.enrich(ops as never, lookup)
    expect(out[0]).toBe(ops[0])
    expect(out[1]).toBe(ops[1])
  })

  it('resolves at read time an event stored before its maps, keeping its grouping', async () => {
    const lookup = new MemoryLookup()
    const resolver = createSourceMapResolver()
    const sent = framesOfRun([{ url: URL, js: app.js }])
    const op = errorOp(P, sentryEvent(sent, { images: [{ code_file: URL, debug_id: ID }] }))
    const [stored] = await resolver.enrich([op], lookup)
    if (stored?.type !== 'event') throw new Error('not an event op')
    expect(framesOf(stored.event)[0]?.['sourcemap']).toMatchObject({ resolved: false })
    expect(stored.event.fingerprint).toBe(op.event.fingerprint)
    withDebugId(lookup, app)
    const read = await resolver.resolveEvent(P, stored.event, lookup)
    expect(framesOf(read)[0]).toMatchObject({ function: 'explode', sourcemap: { resolved: true } })
    expect(framesOf(read)[0]?.['raw']).toEqual(framesOf(op.event)[0])
    expect(read.fingerprint).toBe(op.event.fingerprint)
    // Resolved frames are not resolved again.
    expect(await resolver.resolveEvent(P, read, lookup)).toBe(read)
  })
})
