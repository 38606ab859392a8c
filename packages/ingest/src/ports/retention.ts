/** One retention pass: what to expire, and how. */
export interface RetentionPassOptions {
  /** The pass's clock: a project's rows older than `now` minus its period expire. */
  readonly now: Date
  /** `SERVICE_RETENTION_DAYS`: the period of projects without their own; 0 keeps everything. */
  readonly defaultDays: number
  /** Most rows one transaction deletes. */
  readonly batchSize: number
  /** Count what would go, delete nothing (`tis prune --dry-run`). */
  readonly dryRun?: boolean
  /** Only this project. */
  readonly projectId?: string
  /** Ends the pass between two batches (a server shutting down); what was deleted stays so. */
  readonly signal?: AbortSignal
}

/** What a pass expired (or, dry, would expire) of one project. */
export interface ProjectExpiry {
  readonly projectId: string
  readonly projectName: string
  /** The period applied: the project's own, else the default. */
  readonly days: number
  /** Rows before this instant expire. */
  readonly cutoff: Date
  readonly events: number
  readonly spans: number
  readonly checkIns: number
  /** Issues found with every event expired: they stay, marked `events_expired`. */
  readonly issues: number
  /**
   * Source-map uploads (bundles and release files) no frame was resolved with since the cutoff;
   * the contents no other upload uses go with them.
   */
  readonly artifactBundles: number
  /** Minutes of release-health session aggregates (their users and session states go too). */
  readonly sessionMinutes: number
}

/** The outcome of one pass. */
export interface RetentionReport {
  readonly dryRun: boolean
  /** Projects with something expired, or with a period, in name order (kept ones omitted). */
  readonly projects: readonly ProjectExpiry[]
  /**
   * Chunks of source-map uploads stored more than a day before `now` (an upload that never
   * assembled). Only a pass over every project prunes them; 0 for one project's pass.
   */
  readonly artifactChunks: number
}

/** Rows and approximate bytes of one kind of record. */
export interface UsageFigure {
  /**
   * Counted exactly up to {@link STORAGE_USAGE_EXACT_ROWS} (or the call's `exactRowsUpTo`);
   * beyond, estimated from a sample of the table, so the figure costs about the same at any size.
   */
  readonly rows: number
  /** The rows' share of their table and indexes: rows × the table's average bytes per row. */
  readonly bytes: number
}

/** What a project occupies in the database (approximately: table statistics, not a scan). */
export interface StorageUsage {
  readonly events: UsageFigure
  readonly spans: UsageFigure
  readonly checkIns: UsageFigure
  /**
   * Source-map uploads: `rows` counts bundles (and release uploads), `bytes` their contents,
   * each once per bundle that holds it (exact; contents shared with another project are stored
   * once, so deleting may free less).
   */
  readonly artifacts: UsageFigure
  readonly totalBytes: number
}

/** Rows of one kind a project's usage counts exactly; beyond, it estimates from a sample. */
export const STORAGE_USAGE_EXACT_ROWS = 100_000

/** How {@link RetentionStore.storageUsage} counts. */
export interface StorageUsageOptions {
  /** Rows counted exactly before estimating (default {@link STORAGE_USAGE_EXACT_ROWS}). */
  readonly exactRowsUpTo?: number
}

/** Expiry of old telemetry and the figures that size a disk. */
export interface RetentionStore {
  /**
   * Deletes, in transactions of at most `batchSize` rows, the events, spans and check-ins of
   * every project older than its period (and their idempotency keys), and marks the issues whose
   * every event expired. Source-map uploads unused for the period go too (with the contents no
   * other upload uses), and chunks of uploads that never assembled after a day. Safe to run from several instances at once (a row goes once).
   */
  expireTelemetry(options: RetentionPassOptions): Promise<RetentionReport>
  /** Sets (or with `null` clears) a project's own period in days; `false` when unknown. */
  setProjectRetention(projectId: string, days: number | null): Promise<boolean>
  /** The project's own period (`null`: the default), or `undefined` when unknown. */
  getProjectRetention(projectId: string): Promise<number | null | undefined>
  /** What the project occupies. */
  storageUsage(projectId: string, options?: StorageUsageOptions): Promise<StorageUsage>
}
