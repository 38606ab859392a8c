import { addCounts, type DropCounts } from './counts'
import { createCredentialSource } from './credentials'
import { describeException } from './exception'
import { makeFetchTransport } from './fetch-transport'
import { generateSpanId, generateTraceId, generateUuid } from './ids'
import { onShutdown } from './lifecycle'
import { makeLogger } from './logger'
import type {
  CaptureOptions,
  CheckInOptions,
  CheckInStatus,
  ClientOptions,
  Deployment,
  ExceptionOptions,
  MessageOptions,
  MetricOptions,
  ScopeProvider,
  SpanOptions,
  TransactionOptions,
} from './options'
import { correlation, defined, isoTime, snakeKeys, stringTags } from './payload'
import { normalize, safeStringify } from './serialize'
import type { DropReason, Endpoint, FlushOptions, FlushResult, Transport } from './transport-types'

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
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

/** Creates a client. Bad options disable it (reported through `debug`) instead of throwing. */
export function createClient(clientOptions: ClientOptions): Client {
  // Plain JavaScript callers may pass nothing at all.
  const options: ClientOptions = clientOptions ?? {}
  const log = makeLogger(options.debug)
  let enabled = options.enabled !== false
  if (!options.baseUrl || !(options.apiKey || options.tokenProvider)) {
    log('no baseUrl or credentials: client disabled')
    enabled = false
  }
  const transport: Transport =
    options.transport ??
    makeFetchTransport({
      logger: log,
      refreshOn401: options.tokenProvider !== undefined,
      ...options.transportOptions,
      baseUrl: options.baseUrl ?? '',
      credentials: createCredentialSource(options.apiKey, options.tokenProvider),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
  // User data (context, deployment extras) gets the configured depth below its own root; the
  // envelope pass only makes the whole record safe, so SDK-built nesting (cause chains) survives.
  const envelopeLimits = { ...options.normalize, maxDepth: 16, maxObjects: 1e4 }
  let scope: ScopeProvider | undefined
  let ownDrops: DropCounts = {}
  let captured = 0
  let flushedAt = 0

  function count(reason: DropReason) {
    ownDrops = addCounts(ownDrops, { [reason]: 1 })
  }

  function enqueue(endpoint: Endpoint, key: string, payload: Record<string, unknown>) {
    if (!enabled) return count('disabled')
    let record = normalize(payload, envelopeLimits) as Record<string, unknown>
    if (endpoint === 'ingest_events') {
      const rate = options.sampleRate ?? 1
      if (rate < 1 && Math.random() >= rate) return count('sampled')
      if (options.beforeSend) {
        try {
          const edited = options.beforeSend(record)
          if (!edited) return count('before_send')
          record = edited
        } catch (error) {
          log('beforeSend threw', error)
          return count('before_send')
        }
      }
    }
    captured++
    const body = safeStringify({ [key]: record }, envelopeLimits)
    // A custom transport may break its promise; the host must not see an unhandled rejection.
    Promise.resolve(transport.send({ endpoint, body })).catch((error: unknown) => {
      log('transport rejected', error)
    })
  }

  // A provider that throws costs its defaults, never the capture. A span placed in another
  // trace than the scope's takes no parent from the scope.
  function scoped<O extends CaptureOptions>(o: O): O {
    try {
      const s = scope?.()
      const foreign = o.traceId && o.traceId !== s?.traceId
      return { ...s, ...(foreign && { parentSpanId: undefined }), ...o }
    } catch (error) {
      log('scope failed', error)
      return o
    }
  }

  function event(type: string, fields: Record<string, unknown>, o: CaptureOptions) {
    const id = generateUuid()
    o = scoped(o)
    try {
      enqueue('ingest_events', 'event', {
        event_id: id,
        event_type: type,
        occurred_at: isoTime(o.timestamp) ?? new Date().toISOString(),
        environment: o.environment ?? options.environment,
        release: o.release ?? options.release,
        ...correlation(o),
        ...defined(fields),
        context: {
          ...(normalize({ ...options.context, ...o.context }, options.normalize) as object),
          ...(fields['context'] as object),
          tags: stringTags(options.tags, o.tags),
        },
      })
    } catch (error) {
      log('capture failed', error)
      count('internal_error')
    }
    return id
  }

  function post(endpoint: Endpoint, key: string, build: (id: string) => Record<string, unknown>) {
    const id = generateUuid()
    try {
      enqueue(endpoint, key, defined(build(id)))
    } catch (error) {
      log('capture failed', error)
      count('internal_error')
    }
    return id
  }

  const client: Client = {
    captureException(error, o = {}) {
      let exception: Record<string, unknown> = {}
      try {
        exception = describeException(error)
      } catch {
        // describeException does not throw; the guard is for a hostile environment
      }
      return event(
        'error',
        {
          message: String(exception['message'] || exception['class'] || 'Error'),
          level: o.level ?? 'error',
          fingerprint: o.fingerprint,
          context: { exception: { ...exception, exception_class: exception['class'] } },
        },
        o,
      )
    },
    captureMessage: (message, o = {}) =>
      event('log', { message, level: o.level ?? 'info', fingerprint: o.fingerprint }, o),
    captureMetric: (name, value, o = {}) =>
      event('metric', { message: name, context: defined({ value, unit: o.unit }) }, o),
    captureTransaction: (name, durationMs, o = {}) =>
      event(
        'transaction',
        { message: name, transaction_name: name, duration_ms: durationMs, status: o.status },
        o,
      ),
    captureSpan(name, durationMs, o = {}) {
      o = scoped(o)
      const started = isoTime(o.startedAt) ?? new Date(Date.now() - durationMs).toISOString()
      return event(
        'span',
        {
          name,
          message: name,
          trace_id: o.traceId ?? generateTraceId(),
          span_id: o.spanId ?? generateSpanId(),
          parent_span_id: o.parentSpanId,
          kind: o.kind ?? 'internal',
          started_at: started,
          ended_at: new Date(Date.parse(started) + durationMs).toISOString(),
          duration_ms: durationMs,
          status: o.status,
        },
        o,
      )
    },
    checkIn: (slug, status, o = {}) =>
      post('check_ins', 'check_in', (id) => ({
        event_id: id,
        slug,
        status,
        occurred_at: isoTime(o.timestamp) ?? new Date().toISOString(),
        environment: o.environment ?? options.environment,
        release: o.release ?? options.release,
        expected_interval_seconds: o.expectedIntervalSeconds,
        duration_ms: o.durationMs,
        ...correlation(o),
      })),
    withMonitor(slug, job, o = {}) {
      const start = Date.now()
      const report = (status: CheckInStatus) =>
        client.checkIn(slug, status, { ...o, durationMs: Date.now() - start })
      let result: ReturnType<typeof job>
      try {
        result = job()
      } catch (error) {
        report('error')
        throw error
      }
      if (!isThenable(result)) {
        report('ok')
        return result
      }
      return result.then(
        (value) => {
          report('ok')
          return value
        },
        (error: unknown) => {
          report('error')
          throw error
        },
      ) as typeof result
    },
    recordDeployment: (d) =>
      post('deployments', 'deployment', (id) => ({
        event_id: id,
        environment: options.environment,
        ...snakeKeys(d),
        deployed_at: isoTime(d.deployedAt),
      })),
    setScope(provider) {
      scope = provider
    },
    flush: (timeoutMs, o) => settle(() => transport.flush(timeoutMs, o)),
    async close(timeoutMs) {
      removeShutdown()
      for (const uninstall of uninstalls.splice(0)) safely(uninstall)
      const result = await settle(() =>
        transport.close ? transport.close(timeoutMs) : transport.flush(timeoutMs),
      )
      enabled = false
      return result
    },
  }

  async function settle(run: () => Promise<FlushResult>): Promise<FlushResult> {
    let result: FlushResult = { sent: 0, duplicates: 0, dropped: {}, pending: 0 }
    try {
      result = await run()
    } catch (error) {
      log('flush failed', error)
    }
    const dropped = addCounts(result.dropped, ownDrops)
    ownDrops = {}
    return { ...result, dropped }
  }

  function safely(fn: () => void) {
    try {
      fn()
    } catch (error) {
      log('integration failed', error)
    }
  }

  // beforeExit flushes once per batch of new records, so an unsendable queue cannot keep
  // re-triggering it; pagehide starts everything queued at once (keepalive requests outlive it).
  const removeShutdown =
    options.autoFlush === false
      ? () => {}
      : onShutdown((signal) => {
          const urgent = signal === 'pagehide'
          if (!urgent && captured === flushedAt) return
          flushedAt = captured
          void settle(() => transport.flush(2000, { urgent }))
        })

  const uninstalls: (() => void)[] = []
  for (const integration of options.integrations ?? []) {
    safely(() => {
      const uninstall = integration.setup(client as never)
      if (uninstall) uninstalls.push(uninstall)
    })
  }
  return client
}
