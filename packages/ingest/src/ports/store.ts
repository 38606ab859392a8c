import type { AlertConfigStore } from './alerts'
import type { CredentialStore } from './credentials'
import type { ManagementStore } from './management'
import type { RateLimitStore } from './rate-limits'
import type { ReadinessProbe } from './readiness'
import type { ReadStore } from './reads'
import type { ReleaseHealthStore } from './release-health'
import type { SessionStore } from './sessions'
import type { SourceStore } from './source'
import type { ArtifactStore } from './source-maps'

/**
 * Every port a storage adapter of the reference server provides: the intersection of the roles
 * (each API takes only the ones it needs; see `apps/server/src/compose.ts`). Acceptance is not
 * one of them: records are acknowledged on the store's ingest log (`IngestLog.append`) and
 * written to the read model by its projection.
 */
export interface IngestStore
  extends CredentialStore,
    ManagementStore,
    ReadStore,
    ReleaseHealthStore,
    SourceStore,
    SessionStore,
    AlertConfigStore,
    ArtifactStore,
    Partial<RateLimitStore>,
    Partial<ReadinessProbe> {
  /** Closes connections; pending writes must have been flushed by the engine first. */
  close(): Promise<void>
}
