import { LIMITS, type NormalizedEvent, stackFingerprint, truncateText } from '@tis/schema'
import { issueGrouping } from '../ingest/grouping'
import type { ProjectionEnricher } from '../log/ports'
import type { ArtifactLookup, WriteOp } from '../ports'
import { createMapCache, DEFAULT_SOURCE_MAP_CACHE_BYTES, type MapCacheStats } from './map-cache'
import { type EventToResolve, framesOf, resolveEventFrames } from './resolve-events'

/** Options of {@link createSourceMapResolver}. */
export interface SourceMapResolverOptions {
  /**
   * Bound of the parsed-map cache, in bytes of map files (a parsed map takes about two to
   * three times its file's size in memory). A map larger than this is parsed for each round
   * that needs it and never held.
   * @default DEFAULT_SOURCE_MAP_CACHE_BYTES (128 MiB)
   */
  readonly cacheBytes?: number
  /**
   * The clock bundles are marked used by.
   * @default () => new Date()
   */
  readonly now?: () => Date
}

/** Resolves JavaScript frames with uploaded source maps; one per process (it owns the cache). */
export interface SourceMapResolver {
  /**
   * The projection's enricher (`createLogQueries(db, { enrich })`): resolves the frames of every
   * error event of a round and, when the event's fingerprint was derived from its stack, its
   * grouping from the resolved frames.
   */
  readonly enrich: ProjectionEnricher
  /**
   * Resolves a stored event's frames at read time, for the read API (an event that arrived
   * before its maps were uploaded): frames without `raw` whose `sourcemap.resolved` is not
   * `true` are resolved now; the fingerprint stays as stored (the event keeps the issue it was
   * grouped into). The event comes back as the same object when it has no such frame. Each
   * call looks up the maps of its still-unresolved frames (no answer is cached but parsed
   * maps), and marks the bundles it used with `touchArtifactBundles`.
   */
  resolveEvent(
    projectId: string,
    event: NormalizedEvent,
    lookup: ArtifactLookup,
  ): Promise<NormalizedEvent>
  /** {@link SourceMapResolver.resolveEvent} for many events, in order, with one set of look-ups. */
  resolveEvents(
    items: readonly EventToResolve[],
    lookup: ArtifactLookup,
  ): Promise<readonly NormalizedEvent[]>
  /** The parsed-map cache's size and hit counts. */
  cacheStats(): MapCacheStats
}

type EventOp = Extract<WriteOp, { type: 'event' }>

const exceptionType = (event: NormalizedEvent): string | undefined => {
  const exception = event.context['exception'] as Record<string, unknown> | undefined
  const type = exception?.['exception_class']
  return typeof type === 'string' ? type : undefined
}

/** The op with its resolved event, regrouped when its fingerprint came from its stack. */
function enrichedOp(op: EventOp, event: NormalizedEvent): EventOp {
  if (event === op.event) return op
  const type = exceptionType(op.event)
  const derived =
    op.issue !== null &&
    op.event.fingerprint !== undefined &&
    op.event.fingerprint === stackFingerprint(type, framesOf(op.event) ?? [])
  const fingerprint = derived ? stackFingerprint(type, framesOf(event) ?? []) : undefined
  if (fingerprint === undefined || fingerprint === op.event.fingerprint) return { ...op, event }
  const regrouped = { ...event, fingerprint: truncateText(fingerprint, LIMITS.maxStringLength) }
  return { ...op, event: regrouped, issue: issueGrouping(regrouped) }
}

/**
 * Creates a resolver: the projection's enricher and the read-time resolution over the
 * {@link ArtifactLookup} port, sharing one cache of parsed maps bounded by
 * {@link SourceMapResolverOptions.cacheBytes}.
 */
export function createSourceMapResolver(options: SourceMapResolverOptions = {}): SourceMapResolver {
  const cache = createMapCache(options.cacheBytes ?? DEFAULT_SOURCE_MAP_CACHE_BYTES)
  const now = options.now ?? (() => new Date())
  const resolveEvents = (items: readonly EventToResolve[], lookup: ArtifactLookup) =>
    resolveEventFrames(items, lookup, cache, now)
  const enrich: ProjectionEnricher = async (ops, lookup) => {
    const errors = ops.flatMap((op, i) =>
      op.type === 'event' && op.event.event_type === 'error' ? [{ op, i }] : [],
    )
    if (errors.length === 0) return ops
    const events = await resolveEvents(
      errors.map(({ op }) => ({ projectId: op.projectId, event: (op as EventOp).event })),
      lookup,
    )
    const out = [...ops]
    errors.forEach(({ op, i }, n) => {
      out[i] = enrichedOp(op as EventOp, events[n] as NormalizedEvent) as (typeof ops)[number]
    })
    return out
  }
  return {
    enrich,
    resolveEvents,
    async resolveEvent(projectId, event, lookup) {
      return (await resolveEvents([{ projectId, event }], lookup))[0] as NormalizedEvent
    },
    cacheStats: () => cache.stats(),
  }
}
