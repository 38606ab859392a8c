import type { NormalizedEvent } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import {
  build,
  errorOp,
  framesOfRun,
  MemoryLookup,
  sentryEvent,
} from '../../test/sourcemap-fixtures'
import { createSourceMapResolver } from './resolve'

// The maps real builds make and the cases that break resolvers elsewhere: index maps,
// dependencies, null sourcesContent, corrupt and very large maps, two debug IDs in a file, two
// builds of one bug, and the cache's bound.

type Frames = Record<string, unknown>[]
const framesOf = (e: NormalizedEvent) => (e.context['exception'] as { frames: Frames }).frames
const P = 'p1'
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

const CHECKOUT = "export function explode(input) {\n  throw new Error('boom ' + input)\n}\n"
const MAIN = (extra = '') =>
  `import { explode } from './checkout.js'\n${extra}function main(input) {\n  explode(input)\n}\nglobalThis.__handler = () => main('x')\n`
const VENDOR = 'function sdkCall() {\n  globalThis.__handler()\n}\nglobalThis.__run = sdkCall\n'

/** Stores a build under a debug ID at `~/assets/<name>`, answers the event of running it. */
async function deployed(
  lookup: MemoryLookup,
  name: string,
  id: string,
  files: Record<string, string>,
) {
  const b = await build(files)
  lookup.add([
    { url: `~/assets/${name}`, type: 'minified_source', content: b.js, debugId: id },
    { url: `~/assets/${name}.map`, type: 'source_map', content: b.map, debugId: id },
  ])
  const url = `https://shop.example/assets/${name}`
  const vendor = { url: 'https://shop.example/assets/vendor.js', js: VENDOR }
  const sent = framesOfRun([vendor, { url, js: b.js }])
  return { build: b, url, event: sentryEvent(sent, { images: [{ code_file: url, debug_id: id }] }) }
}

describe('source maps as builds make them', () => {
  it('groups the same error from two builds as one issue, a frame called from an unmapped script by its line', async () => {
    const lookup = new MemoryLookup()
    const one = await deployed(lookup, 'app-1a.js', uuid(1), {
      '/app/src/main.js': MAIN(),
      '/app/src/checkout.js': CHECKOUT,
    })
    const two = await deployed(lookup, 'app-2b.js', uuid(2), {
      '/app/src/main.js': MAIN("import { pad } from './pad.js'\nglobalThis.__pad = pad('x')\n"),
      '/app/src/pad.js': "export function pad(s) {\n  return ' ' + s + ' '\n}\n",
      '/app/src/checkout.js': `// checkout: shifted by a line\n${CHECKOUT}`,
    })
    expect(one.event.fingerprint).not.toBe(two.event.fingerprint)
    const resolver = createSourceMapResolver()
    const out = await resolver.enrich([errorOp(P, one.event), errorOp(P, two.event)], lookup)
    const [a, b] = out.map((op) => (op.type === 'event' ? op : undefined))
    expect(a?.event.fingerprint).toBe(
      "Error explode@../src/checkout.js main@../src/main.js ../src/main.js:globalThis.__handler = () => main('x') sdkCall@/assets/vendor.js",
    )
    expect(b?.event.fingerprint).toBe(a?.event.fingerprint)
    expect(b?.issue?.hash).toBe(a?.issue?.hash)
    const frames = framesOf(b?.event as NormalizedEvent)
    expect(frames[0]).toMatchObject({ function: 'explode', lineno: 3 })
    expect(frames[2]).not.toHaveProperty('function')
    // The vendor script has no map: marked, kept as sent, and out of the way of grouping.
    expect(frames[3]).toMatchObject({
      function: 'sdkCall',
      filename: 'https://shop.example/assets/vendor.js',
      sourcemap: {
        resolved: false,
        problem: 'no debug ID for ~/assets/vendor.js and no release on the event',
      },
    })
    expect(lookup.count('findArtifactsByDebugId')).toBe(1)
    expect(lookup.count('readArtifacts')).toBe(1)
  })

  it('takes dependencies (node_modules) out of the app', async () => {
    const lookup = new MemoryLookup()
    const { event } = await deployed(lookup, 'app.js', uuid(3), {
      '/app/src/main.js': MAIN()
        .replace('  explode(input)', '  each([input], explode)')
        .replace(
          "import { explode } from './checkout.js'",
          "import { explode } from './checkout.js'\nimport { each } from 'tiny-each'",
        ),
      '/app/src/checkout.js': CHECKOUT,
      '/app/node_modules/tiny-each/index.js':
        'export function each(list, fn) {\n  for (const x of list) fn(x)\n}\n',
    })
    const frames = framesOf(await createSourceMapResolver().resolveEvent(P, event, lookup))
    expect(frames[1]).toMatchObject({
      filename: '../node_modules/tiny-each/index.js',
      in_app: false,
    })
    expect(frames[0]).toMatchObject({ filename: '../src/checkout.js', in_app: true })
  })

  it('resolves with a map whose sourcesContent is missing or null, and says so', async () => {
    const lookup = new MemoryLookup()
    const b = await build({ '/app/src/main.js': MAIN(), '/app/src/checkout.js': CHECKOUT })
    const map = JSON.parse(b.map) as { sources: string[]; sourcesContent: (string | null)[] }
    map.sourcesContent[map.sources.indexOf('../src/checkout.js')] = null
    lookup.add([
      { url: '~/app.js.map', type: 'source_map', content: JSON.stringify(map), debugId: uuid(4) },
    ])
    const url = 'https://shop.example/app.js'
    const event = sentryEvent(framesOfRun([{ url, js: b.js }], '__handler'), {
      images: [{ code_file: url, debug_id: uuid(4) }],
    })
    const frames = framesOf(await createSourceMapResolver().resolveEvent(P, event, lookup))
    expect(frames[0]).toMatchObject({
      function: 'explode',
      lineno: 2,
      sourcemap: { resolved: true, problem: 'map has no sourcesContent for ../src/checkout.js' },
    })
    expect(frames[0]).not.toHaveProperty('context_line')
    expect(frames[1]).toMatchObject({ context_line: '  explode(input)' })
  })

  it('takes context from a source file of the same bundle when the map has no sourcesContent', async () => {
    const b = await build({ '/app/src/main.js': MAIN(), '/app/src/checkout.js': CHECKOUT })
    const { sourcesContent: _, ...bare } = JSON.parse(b.map) as Record<string, unknown>
    const lookup = new MemoryLookup()
    const files = [
      {
        url: '~/assets/app.min.js',
        type: 'minified_source' as const,
        content: b.js,
        headers: { sourcemap: 'app.min.js.map' },
      },
      {
        url: '~/assets/app.min.js.map',
        type: 'source_map' as const,
        content: JSON.stringify(bare),
      },
    ]
    lookup.add(
      [{ url: '~/src/checkout.js', type: 'source', content: `${CHECKOUT}// other build\n` }],
      '3.0.0',
    )
    lookup.add([...files, { url: '~/src/checkout.js', type: 'source', content: CHECKOUT }], '3.0.0')
    const url = 'https://shop.example/assets/app.min.js'
    const event = sentryEvent(framesOfRun([{ url, js: b.js }], '__handler'), { release: '3.0.0' })
    const frames = framesOf(await createSourceMapResolver().resolveEvent(P, event, lookup))
    expect(frames[0]).toMatchObject({
      context_line: "  throw new Error('boom ' + input)",
      post_context: ['}', ''],
      sourcemap: { resolved: true, with: 'release', map: '~/assets/app.min.js.map' },
    })
    expect(frames[0]?.['sourcemap']).not.toHaveProperty('problem')
    expect(frames[1]?.['sourcemap']).toMatchObject({
      problem: 'map has no sourcesContent for ../src/main.js',
    })
  })

  it('marks the frames of a map that fails to parse, resolves the others, and does not read it again', async () => {
    const lookup = new MemoryLookup()
    const {
      build: b,
      url,
      event,
    } = await deployed(lookup, 'app.js', uuid(5), {
      '/app/src/main.js': MAIN(),
      '/app/src/checkout.js': CHECKOUT,
    })
    lookup.add([
      {
        url: '~/widget.js.map',
        type: 'source_map',
        content: b.map.slice(0, 200),
        debugId: uuid(6),
      },
    ])
    const widget = 'https://shop.example/widget.js'
    const sent = framesOf(event).map((f) => ({ ...f }) as never)
    const broken = sentryEvent(
      [{ function: 'w', filename: widget, lineno: 1, colno: 5, in_app: true }, ...sent],
      {
        images: [
          { code_file: url, debug_id: uuid(5) },
          { code_file: widget, debug_id: uuid(6) },
        ],
      },
    )
    const resolver = createSourceMapResolver()
    const frames = framesOf(await resolver.resolveEvent(P, broken, lookup))
    expect(frames[0]?.['sourcemap']).toMatchObject({
      resolved: false,
      problem: expect.stringMatching(/^source map ~\/widget\.js\.map failed to parse: /),
    })
    expect(frames[1]).toMatchObject({ function: 'explode', sourcemap: { resolved: true } })
    await resolver.resolveEvent(P, broken, lookup)
    expect(lookup.count('readArtifacts')).toBe(1)
  })

  it('reads an index map (sections)', async () => {
    const lib = await build(
      {
        '/app/src/lib.js': `${CHECKOUT}globalThis.__explode = explode\n`,
      },
      { entry: '/app/src/lib.js' },
    )
    const app = await build({
      '/app/src/main.js':
        "function main(input) {\n  globalThis.__explode(input)\n}\nglobalThis.__run = () => main('x')\n",
    })
    const js = `${lib.js}${app.js}` // esbuild's external maps leave no comment: one line each
    const sectioned = {
      version: 3,
      sections: [
        { offset: { line: 0, column: 0 }, map: JSON.parse(lib.map) },
        { offset: { line: 1, column: 0 }, map: JSON.parse(app.map) },
      ],
    }
    const lookup = new MemoryLookup()
    lookup.add([
      {
        url: '~/all.js.map',
        type: 'source_map',
        content: JSON.stringify(sectioned),
        debugId: uuid(7),
      },
    ])
    const url = 'https://shop.example/all.js'
    const event = sentryEvent(framesOfRun([{ url, js }]), {
      images: [{ code_file: url, debug_id: uuid(7) }],
    })
    const frames = framesOf(await createSourceMapResolver().resolveEvent(P, event, lookup))
    expect(frames.map((f) => [f['filename'], f['lineno']])).toEqual([
      ['../src/lib.js', 2],
      ['../src/main.js', 2],
      ['../src/main.js', 4],
    ])
  })

  it('resolves a file with two debug IDs (in the code and in the comment) by the one the event names', async () => {
    const right = await build({ '/app/src/main.js': MAIN(), '/app/src/checkout.js': CHECKOUT })
    const other = await build({
      '/app/src/main.js': MAIN('const pad = 1\n'),
      '/app/src/checkout.js': `\n\n${CHECKOUT}`,
    })
    const [inCode, inComment] = [uuid(8), uuid(9)]
    const js = `;globalThis._sentryDebugIds={[new Error().stack]:"${inCode}"};\n${right.js}//# debugId=${inComment}\n`
    const lookup = new MemoryLookup()
    lookup.add([
      { url: '~/app.js', type: 'minified_source', content: js, debugId: inComment },
      { url: '~/app.js.map', type: 'source_map', content: other.map, debugId: inComment },
    ])
    const url = 'https://shop.example/app.js'
    const event = sentryEvent(framesOfRun([{ url, js: right.js }], '__handler'), {
      images: [{ code_file: url, debug_id: inCode }],
    })
    const resolver = createSourceMapResolver()
    expect(framesOf(await resolver.resolveEvent(P, event, lookup))[0]?.['sourcemap']).toEqual({
      resolved: false,
      problem: `no source map uploaded with debug ID ${inCode}`,
    })
    lookup.add([{ url: '~/app.js.map', type: 'source_map', content: right.map, debugId: inCode }])
    expect(framesOf(await resolver.resolveEvent(P, event, lookup))[0]).toMatchObject({
      lineno: 2,
      sourcemap: { resolved: true, debug_id: inCode },
    })
  })

  it('resolves in a map of about 10 MB', async () => {
    const table = Array.from({ length: 180_000 }, (_, i) => `  f${i}(a) { return a * ${i} + 1 },`)
    const big = await build({
      '/app/src/main.js': `import { explode } from './checkout.js'\nconst table = {\n${table.join('\n')}\n}\nglobalThis.__table = table\nglobalThis.__run = () => explode(table.f179999(2))\n`,
      '/app/src/checkout.js': CHECKOUT,
    })
    expect(big.map.length).toBeGreaterThan(9_000_000)
    const lookup = new MemoryLookup()
    lookup.add([{ url: '~/big.js.map', type: 'source_map', content: big.map, debugId: uuid(10) }])
    const url = 'https://shop.example/big.js'
    const event = sentryEvent(framesOfRun([{ url, js: big.js }]), {
      images: [{ code_file: url, debug_id: uuid(10) }],
    })
    const started = performance.now()
    const frames = framesOf(await createSourceMapResolver().resolveEvent(P, event, lookup))
    // Read, parsed and decoded in one go: about a second on this machine's shared cores.
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(frames[0]).toMatchObject({
      function: 'explode',
      filename: '../src/checkout.js',
      lineno: 2,
    })
    expect(frames[1]).toMatchObject({ filename: '../src/main.js', lineno: 180_005 })
    expect(frames[1]?.['context_line']).toBe('globalThis.__run = () => explode(table.f179999(2))')
  }, 60_000)

  it('keeps the cache within its bound, evicting the least recently used maps', async () => {
    const lookup = new MemoryLookup()
    const events: NormalizedEvent[] = []
    for (let n = 0; n < 4; n++) {
      const d = await deployed(lookup, `app-${n}.js`, uuid(20 + n), {
        '/app/src/main.js': MAIN(`const build${n} = ${n}\nglobalThis.__build = build${n}\n`),
        '/app/src/checkout.js': CHECKOUT,
      })
      events.push(d.event)
    }
    const mapBytes = Math.max(
      ...lookup.files.filter((f) => f.type === 'source_map').map((f) => f.size),
    )
    const resolver = createSourceMapResolver({ cacheBytes: Math.floor(mapBytes * 1.5) })
    for (const event of [...events, ...events]) {
      const frames = framesOf(await resolver.resolveEvent(P, event, lookup))
      expect(frames[0]).toMatchObject({ function: 'explode' })
      expect(resolver.cacheStats().bytes).toBeLessThanOrEqual(mapBytes * 1.5)
    }
    expect(resolver.cacheStats()).toMatchObject({ entries: 1, hits: 0, misses: 8, evictions: 7 })
    expect(lookup.count('readArtifacts')).toBe(8)
  })
})
