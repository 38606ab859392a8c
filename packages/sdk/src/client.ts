import { errorFields, spanFields } from './captures'
import type { Client } from './client-api'
import { createCredentialSource } from './credentials'
import { makeFetchTransport } from './fetch-transport'
import { onShutdown } from './lifecycle'
import { makeLogger } from './logger'
import { monitor } from './monitor'
import type { CaptureOptions, ClientOptions, Payload, ScopeProvider } from './options'
import { isoTime, snakeKeys, stringTags } from './payload'
import { createRecorder } from './recorder'
import { normalize } from './serialize'
import { createSessions } from './session'
import type { Transport } from './transport-types'

export type { Client } from './client-api'

/** Creates a client. Bad options disable it (reported through `debug`) instead of throwing. */
export function createClient(options: ClientOptions): Client {
  // Plain JavaScript callers may pass nothing at all.
  options ??= {} as ClientOptions
  const log = makeLogger(options.debug)
  const transport: Transport =
    options.transport ??
    makeFetchTransport({
      logger: log,
      refreshOn401: options.tokenProvider !== undefined,
      ...options.transportOptions,
      baseUrl: options.baseUrl ?? '',
      credentials: createCredentialSource(options.apiKey, options.tokenProvider),
      fetch: options.fetch!,
    })
  const recorder = createRecorder(options, transport, log)
  const uninstalls: (() => void)[] = []
  let scope: ScopeProvider | undefined
  let flushedAt = 0
  // Sessions count only with a release, as Sentry's do.
  const sessionBody = (key: string, body: Payload) =>
    options.release &&
    options.sessions !== false &&
    recorder.enqueue_('sessions', key, {
      ...body,
      attrs: { release: options.release, environment: options.environment },
    })
  const sessions = createSessions((session) => sessionBody('session', session))
  // A page's sessions are its integration's; a process has one from here to its exit.
  if (!(globalThis as { document?: unknown }).document) sessions.start_(undefined, true)

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

  /** What every event and check-in carries besides its id: time, environment, release, correlation ids. */
  const common = (o: CaptureOptions) => ({
    occurred_at: isoTime(o.timestamp) ?? isoTime(Date.now()),
    environment: o.environment ?? options.environment,
    release: o.release ?? options.release,
    trace_id: o.traceId,
    request_id: o.requestId,
    session_id: o.sessionId,
    user_id: o.userId,
  })

  // Undefined fields are left out of the record when it is normalised.
  function event(type: string, fields: Payload, o: CaptureOptions) {
    o = scoped(o)
    return recorder.record_('ingest_events', 'event', () => ({
      event_type: type,
      ...common(o),
      ...fields,
      context: {
        ...(normalize({ ...options.context, ...o.context }, options.normalize) as object),
        ...(fields['context'] as object),
        tags: stringTags(options.tags, o.tags),
      },
    }))
  }

  function safely(fn: () => void) {
    try {
      fn()
    } catch (error) {
      log('integration failed', error)
    }
  }

  const client: Client = {
    captureException(error, o = {}) {
      sessions.error_()
      return event('error', errorFields(error, o), o)
    },
    captureMessage: (message, o = {}) =>
      event('log', { message, level: o.level ?? 'info', fingerprint: o.fingerprint }, o),
    captureMetric: (name, value, o = {}) =>
      event('metric', { message: name, context: { value, unit: o.unit } }, o),
    captureTransaction: (name, durationMs, o = {}) =>
      event(
        'transaction',
        { message: name, transaction_name: name, duration_ms: durationMs, status: o.status },
        o,
      ),
    captureSpan(name, durationMs, o = {}) {
      o = scoped(o)
      return event('span', spanFields(name, durationMs, o), o)
    },
    checkIn: (slug, status, o = {}) =>
      recorder.record_('check_ins', 'check_in', () => ({
        ...common(o),
        slug,
        status,
        expected_interval_seconds: o.expectedIntervalSeconds,
        duration_ms: o.durationMs,
      })),
    withMonitor(slug, job, o = {}) {
      const start = Date.now()
      return monitor(job, (status) =>
        client.checkIn(slug, status, { ...o, durationMs: Date.now() - start }),
      )
    },
    recordDeployment: (d) =>
      recorder.record_('deployments', 'deployment', () => ({
        environment: options.environment,
        ...snakeKeys(d),
        deployed_at: isoTime(d.deployedAt),
      })),
    setScope(provider) {
      scope = provider
    },
    startSession: (o = {}) => sessions.start_(o.userId),
    endSession: (status = 'exited') => sessions.end_(status),
    captureSessions(aggregates) {
      // The serialiser keeps 100 items per array: more buckets (users) go in further bodies.
      for (let i = 0; i < aggregates.length; i += 100)
        sessionBody('sessions', { aggregates: aggregates.slice(i, i + 100) })
    },
    flush(timeoutMs, o) {
      sessions.update_()
      return recorder.flush_(timeoutMs, o)
    },
    async close(timeoutMs) {
      removeShutdown()
      sessions.end_('exited')
      for (const uninstall of uninstalls.splice(0)) safely(uninstall)
      const result = await recorder.flush_(timeoutMs, undefined, true)
      recorder.disable_()
      return result
    },
  }

  // beforeExit flushes once per batch of new records, so an unsendable queue cannot keep
  // re-triggering it; pagehide starts everything queued at once (keepalive requests outlive it).
  const removeShutdown =
    options.autoFlush === false
      ? () => {}
      : onShutdown((urgent) => {
          sessions.end_('exited')
          if (!urgent && recorder.captured_() === flushedAt) return
          flushedAt = recorder.captured_()
          // Through client.flush, so what an integration wraps it with (request sessions) runs too.
          void client.flush(2000, { urgent })
        })

  for (const integration of options.integrations ?? []) {
    safely(() => {
      const uninstall = integration.setup(client as never)
      if (uninstall) uninstalls.push(uninstall)
    })
  }
  return client
}
