import type {
  CheckInOptions,
  CheckInStatus,
  Deployment,
  ExceptionOptions,
  MessageOptions,
  MetricOptions,
  ScopeProvider,
  SessionAggregate,
  SessionEndStatus,
  SessionOptions,
  SpanOptions,
  TransactionOptions,
} from './options'
import type { FlushOptions, FlushResult } from './transport-types'

/** The client of {@link createClient}. No method throws; captures return the record's id. */
export interface Client {
  /** Sends an `error` event describing `error`; resolves nothing, returns the `event_id`. */
  captureException(error: unknown, options?: ExceptionOptions): string
  /** Sends a `log` event. */
  captureMessage(message: string, options?: MessageOptions): string
  /** Sends a `metric` event with `context.value` and `context.unit`. */
  captureMetric(name: string, value: number, options?: MetricOptions): string
  /** Sends a `transaction` event. */
  captureTransaction(name: string, durationMs: number, options?: TransactionOptions): string
  /** Sends a `span` event with W3C ids (a fresh trace id unless `traceId` is given). */
  captureSpan(name: string, durationMs: number, options?: SpanOptions): string
  /** Sends a check-in to `POST /api/v1/check_ins`. */
  checkIn(slug: string, status: CheckInStatus, options?: CheckInOptions): string
  /** Runs `job`, then checks in `ok` with its duration, or `error` (rethrowing the job's error). */
  withMonitor<T>(slug: string, job: () => T, options?: CheckInOptions): T
  /** Sends a deployment record to `POST /api/v1/deployments`. */
  recordDeployment(deployment: Deployment): string
  /**
   * Waits for queued records (at most `timeoutMs`); counts since the previous flush. `urgent`
   * starts every queued record now (a page being hidden).
   */
  flush(timeoutMs?: number, options?: FlushOptions): Promise<FlushResult>
  /** Flushes, removes integrations and exit hooks, and stops sending. */
  close(timeoutMs?: number): Promise<FlushResult>
  /**
   * Installs (or, with `undefined`, removes) the provider of ambient options such as the
   * current request's trace and request ids. They apply to the event captures (errors, logs,
   * metrics, transactions, spans) under their explicit options. One provider per client.
   */
  setScope(provider: ScopeProvider | undefined): void
  /**
   * Starts a release-health session, ending the current one as `exited`, and sends its first
   * update (`init: true`). Each `captureException` counts an error into it; the update follows
   * within a second. Nothing is sent without a `release` or with `sessions: false`.
   */
  startSession(options?: SessionOptions): void
  /**
   * Ends the current session with `status` and sends its final update; `false` drops it unsent
   * (a server switching to request sessions). No-op without a session.
   * @default 'exited'
   */
  endSession(status?: SessionEndStatus | false): void
  /**
   * Sends per-minute session counts (request mode) as one `sessions` aggregate body (one per
   * 100 buckets), with the client's release and environment as `attrs`.
   */
  captureSessions(aggregates: readonly SessionAggregate[]): void
}
