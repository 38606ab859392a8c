// `pnpm --filter @tis/bench run bench:sourcemaps`: projection throughput of error
// events whose JavaScript frames the source-map resolver resolves (cold and warm cache), next to
// events without JavaScript frames and to JavaScript events with no map uploaded, on a durable
// embedded PostgreSQL; and the parsed-map cache against its bound.
//
// A minified esbuild bundle of a generated app with @sentry/browser (a real map with
// sourcesContent and a debug ID) is saved as an artifact bundle of a project. Each variant's
// BENCH_SOURCEMAP_EVENTS events (20,000) are accepted onto the ingest log by the real engine
// (Sentry envelopes through `ingestSentry`, ops group-committed with the store's `append`), then
// projected in rounds of 1,000 until caught up, timed, with the processor time of this process
// and of PostgreSQL. BENCH_SOURCEMAP_ROUNDS (2) rounds of every variant; the first two swap
// places between rounds. A few stored events of each variant are read back: the bench fails
// unless the resolvable ones were resolved and the others were not.
import { randomUUID } from 'node:crypto'
import {
  createSourceMapResolver,
  DEFAULT_SOURCE_MAP_CACHE_BYTES,
  type MapCacheStats,
} from '@tis/ingest'
import { openPostgresStore, type PostgresIngestStore } from '@tis/storage-postgres'
import { sha1Of, utf8 } from '@tis/test-utils/artifact-fixtures'
import { startTestPostgres } from '@tis/test-utils/postgres'
import { seedProject, uniqueHash } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { saveFigures } from './results'
import { buildBenchBundle } from './sourcemap-build'
import {
  acceptEvents,
  benchIngestApi,
  type EventTarget,
  type FrameKind,
  sentryEvent,
} from './sourcemap-events'
import { mappedPositions, pickStacks } from './sourcemap-positions'
import { frameStates, projectionMeters, timeProjection } from './sourcemap-projection'
import { printReport, type Runs, reportFigures, type Variant } from './sourcemap-report'

const EVENTS = Number(process.env['BENCH_SOURCEMAP_EVENTS'] ?? 20_000)
const ROUNDS = Number(process.env['BENCH_SOURCEMAP_ROUNDS'] ?? 2)
const CACHE_BYTES = Number(
  process.env['BENCH_SOURCEMAP_CACHE_BYTES'] ?? DEFAULT_SOURCE_MAP_CACHE_BYTES,
)
const RELEASE = 'shop@1.0.0'

/** Heap in use after a full collection (`--expose-gc`); `null` without it. */
function settledHeap(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) return null
  gc()
  return process.memoryUsage().heapUsed
}

/** A project of the bench with its Sentry number and DSN key. */
async function benchProject(store: PostgresIngestStore) {
  const { projectId } = await seedProject(store)
  const project = await store.findProject(projectId)
  if (!project?.number || !project.sentryKey) throw new Error('the project has no DSN')
  return { projectId, number: project.number, sentryKey: project.sentryKey }
}

/** The artifact files of the bundle, as sentry-cli uploads them (`debug-id` headers). */
function bundleFiles(code: string, map: string, file: string, debugId: string) {
  const entry = (
    url: string,
    type: 'minified_source' | 'source_map',
    text: string,
    headers: Record<string, string>,
  ) => {
    const content = utf8(text)
    return { url, type, debugId, headers, sha1: sha1Of(content), size: content.byteLength, content }
  }
  return [
    entry(`~/assets/${file}`, 'minified_source', code, {
      'debug-id': debugId,
      sourcemap: `${file}.map`,
    }),
    entry(`~/assets/${file}.map`, 'source_map', map, { 'debug-id': debugId }),
  ]
}

async function main() {
  const bundle = await buildBenchBundle()
  const { mappings } = JSON.parse(bundle.map) as { mappings: string }
  const stacks = pickStacks(mappedPositions(mappings), bundle.appSources, {
    count: 200,
    app: 5,
    sdk: 2,
  })
  const pg = await startTestPostgres({ durable: true })
  const plain = await openPostgresStore(pg.url)
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  const opened: PostgresIngestStore[] = [plain]
  try {
    const mapped = await benchProject(plain)
    const unmapped = await benchProject(plain)
    await plain.saveArtifactBundle({
      projectId: mapped.projectId,
      checksum: uniqueHash().slice(0, 40),
      bundleDebugId: randomUUID(),
      release: RELEASE,
      dist: null,
      files: bundleFiles(bundle.code, bundle.map, bundle.file, bundle.debugId),
      uploadedBy: null,
      uploadedAt: new Date(),
    })
    const target: EventTarget = {
      url: `https://shop.example/assets/${bundle.file}`,
      debugId: bundle.debugId,
      release: RELEASE,
    }
    const api = benchIngestApi(plain)
    const meters = await projectionMeters(sql)
    const runs: Runs = []
    const samples: Partial<Record<Variant, string[]>> = {}
    const notes: string[] = [
      `bundle: ${bundle.code.length.toLocaleString('en-US')} bytes minified, map ${bundle.map.length.toLocaleString('en-US')} bytes; ${EVENTS.toLocaleString('en-US')} events per variant and round, 7 frames each (5 app, 2 SDK) over 200 stacks`,
    ]
    let cache: MapCacheStats | null = null
    for (let round = 0; round < ROUNDS; round++) {
      const resolver = createSourceMapResolver({ cacheBytes: CACHE_BYTES })
      const enriched = await openPostgresStore(pg.url, { enrich: resolver.enrich, migrate: false })
      opened.push(enriched)
      const plan: Array<[Variant, PostgresIngestStore, FrameKind, typeof mapped]> = [
        ['plain', plain, 'plain', mapped],
        ['plainEnriched', enriched, 'plain', mapped],
        ['cold', enriched, 'js', mapped],
        ['warm', enriched, 'js', mapped],
        ['unmapped', enriched, 'js', unmapped],
      ]
      // The baseline and its enriched twin swap places each round, so drift hits both alike.
      if (round % 2 === 1) plan.unshift(...plan.splice(1, 1))
      const results: Runs[number] = {}
      for (const [variant, store, kind, project] of plan) {
        const heapBefore = variant === 'cold' && round === 0 ? settledHeap() : null
        const started = performance.now()
        const ids = await acceptEvents(api, project, EVENTS, (id, n) =>
          sentryEvent(id, stacks[n % stacks.length] ?? [], kind, target),
        )
        const acceptSeconds = (performance.now() - started) / 1000
        const run = await timeProjection(store, meters)
        results[variant] = run
        const heapAfter = heapBefore === null ? null : settledHeap()
        if (heapBefore !== null && heapAfter !== null) {
          const mib = (heapAfter - heapBefore) / 1048576
          notes.push(
            `heap held after the cold run (the parsed map, after a GC): ${mib.toFixed(1)} MiB, ${((heapAfter - heapBefore) / bundle.map.length).toFixed(1)}× the map file`,
          )
        }
        samples[variant] = [...(samples[variant] ?? []), ...ids.slice(0, 5), ...ids.slice(-5)]
        console.log(
          `round ${round + 1}, ${variant}: accepted in ${acceptSeconds.toFixed(1)} s, projected in ${run.seconds.toFixed(1)} s`,
        )
      }
      runs.push(results)
      cache = resolver.cacheStats()
      if (cache.bytes > cache.maxBytes) {
        throw new Error(`the cache holds ${cache.bytes} bytes, over its bound of ${cache.maxBytes}`)
      }
      await enriched.close()
      // A closed store keeps its enricher, and with it the resolver's cache.
      opened.splice(opened.indexOf(enriched), 1)
    }
    const memory = process.memoryUsage()
    notes.push(
      `bench process at the end: rss ${Math.round(memory.rss / 1048576)} MiB, heap used ${Math.round(memory.heapUsed / 1048576)} MiB`,
    )
    notes.push(...(await checkResolution(sql, samples)))
    printReport(runs, cache as MapCacheStats, notes)
    saveFigures('sourcemaps', reportFigures(runs, cache as MapCacheStats))
    await api.close()
  } finally {
    await sql.end()
    for (const store of opened) await store.close().catch(() => {})
    await pg.stop()
  }
}

/**
 * Reads back the sampled events of each variant: resolvable ones must have resolved frames, the
 * others none (JavaScript ones marked unresolved, the rest untouched). Throws otherwise.
 */
async function checkResolution(sql: postgres.Sql, samples: Partial<Record<Variant, string[]>>) {
  const notes: string[] = []
  for (const [variant, ids] of Object.entries(samples) as Array<[Variant, string[]]>) {
    const { states, events, problem, bytes } = await frameStates(sql, ids)
    const resolvable = variant === 'cold' || variant === 'warm'
    const ok =
      events === ids.length &&
      (resolvable
        ? states.resolved > 0 && states.unresolved === 0
        : states.resolved === 0 &&
          (variant === 'unmapped' ? states.unresolved > 0 : states.unresolved === 0))
    const line = `check ${variant}: ${events}/${ids.length} events read back, frames ${states.resolved} resolved, ${states.unresolved} unresolved${problem ? ` ("${problem}")` : ''}, ${states.untouched} untouched; payload ${bytes.toLocaleString('en-US')} bytes`
    if (!ok) throw new Error(`resolution check failed: ${line}`)
    notes.push(line)
  }
  return notes
}

await main()
