import type { NormalizedEvent } from '@tis/schema'
import type { ArtifactLookup, EventRecord } from '../ports'
import type { SourceMapResolver } from '../sourcemaps/resolve'

/** What the read API resolves JavaScript frames with at read time. */
export interface ReadSourceMaps {
  readonly resolver: Pick<SourceMapResolver, 'resolveEvents'>
  /** The stored uploads (the store's `ArtifactLookup`). */
  readonly lookup: ArtifactLookup
}

/**
 * The records with the frames their maps resolve now: an error stored before its source maps
 * were uploaded reads resolved once they are. Its grouping stays as stored (it keeps the issue
 * it joined). Records with nothing to resolve come back as they were, in order.
 */
export async function withResolvedFrames(
  sourceMaps: ReadSourceMaps | undefined,
  projectId: string,
  records: readonly EventRecord[],
): Promise<readonly EventRecord[]> {
  if (!sourceMaps) return records
  const errors = records.flatMap((r, i) => (r.eventType === 'error' ? [i] : []))
  if (errors.length === 0) return records
  const resolved = await sourceMaps.resolver.resolveEvents(
    errors.map((i) => ({ projectId, event: records[i]!.payload as unknown as NormalizedEvent })),
    sourceMaps.lookup,
  )
  const out = [...records]
  errors.forEach((i, n) => {
    const event = resolved[n]
    const record = records[i]!
    if (event !== undefined && event !== (record.payload as unknown)) {
      out[i] = { ...record, payload: event as unknown as Readonly<Record<string, unknown>> }
    }
  })
  return out
}
