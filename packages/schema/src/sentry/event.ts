import type { JsonObject } from '../keys'
import { stackFingerprint } from '../stack-fingerprint'
import { arr, defined, isoOf, levelOf, num, obj, str, tagsOf, uuidOfEventId } from './common'
import { frameVars } from './frame-vars'

// Sentry's `event` item (an error or a message: https://develop.sentry.dev/sdk/data-model/event-payloads/)
// as tis's native event envelope: `{ event: { event_type: 'error', … } }`, which the native
// parser then validates like any other.

/** The most breadcrumbs kept of an event (the newest). */
export const SENTRY_MAX_BREADCRUMBS = 50

/** One stack frame as tis's `context.exception.frames` keeps it (innermost first). */
function frameOf(v: unknown): JsonObject | undefined {
  const f = obj(v)
  if (!f) return undefined
  return defined({
    function: str(f['function']),
    module: str(f['module']),
    filename: str(f['abs_path']) ?? str(f['filename']),
    lineno: num(f['lineno']),
    colno: num(f['colno']),
    in_app: typeof f['in_app'] === 'boolean' ? f['in_app'] : undefined,
    context_line: str(f['context_line']),
    vars: frameVars(f['vars']),
  })
}

/** The exception values of an event, outermost first (as Sentry orders them: the last is the one raised). */
function exceptionValues(event: JsonObject): JsonObject[] {
  const exception = event['exception']
  const values = Array.isArray(exception) ? exception : arr(obj(exception)?.['values'])
  return values.map(obj).filter((v): v is JsonObject => v !== undefined)
}

/** Sentry orders frames oldest first; tis keeps the innermost first. */
const framesOf = (value: JsonObject | undefined): JsonObject[] =>
  arr(obj(value?.['stacktrace'])?.['frames'])
    .map(frameOf)
    .filter((f): f is JsonObject => f !== undefined)
    .reverse()

/** "TypeError: x is undefined", or the type or value alone. */
function exceptionMessage(value: JsonObject | undefined): string | undefined {
  const type = str(value?.['type'])
  const text = str(value?.['value'])
  if (type && text) return `${type}: ${text}`
  return type ?? text
}

/** A message event's text: `logentry.formatted`, `logentry.message` or `message`. */
function messageText(event: JsonObject): string | undefined {
  const entry = obj(event['logentry']) ?? obj(event['message'])
  return str(entry?.['formatted']) ?? str(entry?.['message']) ?? str(event['message'])
}

/**
 * The grouping key: Sentry's `fingerprint` (its `{{ default }}` entries standing for tis's own
 * grouping, by message); without one, the exception type and the in-app frames' functions and
 * files, so errors whose messages carry ids still group (Sentry groups by stack trace too).
 */
function fingerprintOf(event: JsonObject, raised: JsonObject | undefined): string | undefined {
  const given = arr(event['fingerprint']).filter((p): p is string => typeof p === 'string')
  const custom = given.filter((p) => !/^\{\{\s*default\s*\}\}$/.test(p))
  if (custom.length > 0 && custom.length === given.length) return custom.join(' | ')
  if (custom.length > 0) return undefined // default + custom parts: grouped by message
  return stackFingerprint(str(raised?.['type']), framesOf(raised))
}

/** The most source-map images kept of an event's `debug_meta`. */
export const SENTRY_MAX_DEBUG_IMAGES = 100

/**
 * `debug_meta` as `context.debug_meta`: only its source-map images (`type: "sourcemap"`, with a
 * `code_file` and a `debug_id`), which the source-map resolver matches to frames by file; native
 * images (dSYM, ELF, …) are no use to it.
 */
function debugMetaOf(v: unknown): JsonObject | undefined {
  const images = arr(obj(v)?.['images'])
    .map(obj)
    .filter((i) => i?.['type'] === 'sourcemap' && str(i['code_file']) && str(i['debug_id']))
    .slice(0, SENTRY_MAX_DEBUG_IMAGES)
    .map((i) => ({ type: 'sourcemap', code_file: i?.['code_file'], debug_id: i?.['debug_id'] }))
  return images.length > 0 ? { images } : undefined
}

/** An object, or Sentry's `[[name, value], …]` form of one. */
const pairsOf = (v: unknown): JsonObject | undefined =>
  obj(v) ??
  (Array.isArray(v)
    ? Object.fromEntries(arr(v).filter(Array.isArray) as Array<[string, unknown]>)
    : undefined)

/** The request interface as tis's `context.request`. */
function requestOf(v: unknown): JsonObject | undefined {
  const r = obj(v)
  if (!r) return undefined
  const query = r['query_string']
  return defined({
    method: str(r['method']),
    url: str(r['url']),
    query_string:
      typeof query === 'string' ? query : query === undefined ? undefined : JSON.stringify(query),
    headers: pairsOf(r['headers']),
    // Kept for triage and scrubbed like everything else: a form's fields, the cookies as sent
    // (a string or an object), and the WSGI/CGI environment (REMOTE_ADDR, SERVER_NAME, …).
    data: r['data'] === null ? undefined : r['data'],
    cookies: typeof r['cookies'] === 'string' ? r['cookies'] : pairsOf(r['cookies']),
    env: obj(r['env']),
  })
}

/**
 * The user's id for tis: `id`, else `email`, `username` or `ip_address` — not the `{{auto}}`
 * placeholder the browser SDK sends for "the address this came from", which would make every
 * user one.
 */
const userIdOf = (user: JsonObject | undefined) =>
  str(user?.['id']) ??
  num(user?.['id']) ??
  str(user?.['email']) ??
  str(user?.['username']) ??
  (user?.['ip_address'] === '{{auto}}' ? undefined : str(user?.['ip_address']))

/** The trace context of an event (`contexts.trace`). */
export const traceOf = (event: JsonObject) => obj(obj(event['contexts'])?.['trace'])

/** Sentry's `event` item payload as the native event envelope. */
export function sentryEventEnvelope(event: JsonObject): { event: JsonObject } {
  const values = exceptionValues(event)
  const raised = values.at(-1)
  const trace = traceOf(event)
  const user = obj(event['user'])
  const frames = framesOf(raised)
  const breadcrumbs = arr(obj(event['breadcrumbs'])?.['values'] ?? event['breadcrumbs'])
  const exception = raised
    ? defined({
        exception_class: str(raised['type']),
        message: str(raised['value']),
        module: str(raised['module']),
        mechanism: obj(raised['mechanism']),
        frames: frames.length > 0 ? frames.slice(0, 50) : undefined,
        // The chained causes, outermost first, without their frames.
        chain:
          values.length > 1
            ? values
                .slice(0, -1)
                .map((v) => defined({ type: str(v['type']), value: str(v['value']) }))
            : undefined,
      })
    : undefined
  return {
    event: defined({
      event_type: 'error',
      event_id: uuidOfEventId(event['event_id']),
      message: exceptionMessage(raised) ?? messageText(event) ?? '<no message>',
      level: levelOf(event['level'], 'error'),
      occurred_at: isoOf(event['timestamp']),
      environment: str(event['environment']),
      release: str(event['release']),
      fingerprint: fingerprintOf(event, raised),
      trace_id: str(trace?.['trace_id']),
      span_id: str(trace?.['span_id']),
      user_id: userIdOf(user),
      transaction_name: str(event['transaction']),
      context: defined({
        exception,
        request: requestOf(event['request']),
        tags: tagsOf(event['tags']),
        user,
        contexts: obj(event['contexts']),
        extra: obj(event['extra']),
        sdk: obj(event['sdk']),
        platform: str(event['platform']),
        server_name: str(event['server_name']),
        logger: str(event['logger']),
        dist: str(event['dist']),
        debug_meta: debugMetaOf(event['debug_meta']),
        breadcrumbs:
          breadcrumbs.length > 0 ? breadcrumbs.slice(-SENTRY_MAX_BREADCRUMBS) : undefined,
        protocol: 'sentry',
      }),
    }),
  }
}
