import { isPlainObject, type JsonObject } from '../keys'

// Release health (docs/release-health.md): the `session` and `sessions` items of Sentry's SDKs
// and of `POST /api/v1/sessions`, in one normalised shape. Sentry's semantics: a session counts
// on its `init` update; each update carries the whole state; a terminal status is final.

/** The statuses a session update may carry (Relay's `SessionStatus`). */
export const SESSION_STATUSES = [
  'ok',
  'exited',
  'crashed',
  'abnormal',
  'errored',
  'unhandled',
] as const

/** One of {@link SESSION_STATUSES}. */
export type SessionStatus = (typeof SESSION_STATUSES)[number]

/** Environment of a session that names none: Sentry's SDKs' own default. */
export const DEFAULT_SESSION_ENVIRONMENT = 'production'

/** Bounds of a session item (Relay's, where it has one). */
export const SESSION_LIMITS = {
  /** Longest release, environment, `sid` and `did`. */
  maxTextLength: 200,
  /** Most buckets in one `sessions` item. */
  maxAggregates: 1_000,
  /** Largest count in one bucket. */
  maxCount: 1_000_000_000,
  /** Latest `started` accepted, after the receive time (clock drift). */
  maxFutureSeconds: 300,
} as const

/** One session update: the whole state of one session as its SDK saw it. */
export interface SessionUpdate {
  readonly kind: 'update'
  readonly sid: string
  /** The distinct user (`did`), when the SDK knows one. */
  readonly did: string | null
  /** The SDK's logical clock of the update (milliseconds), when sent. */
  readonly seq: number | null
  /** The first update of the session: the one that counts it. */
  readonly init: boolean
  readonly started: string
  readonly timestamp: string | null
  /** Seconds. */
  readonly duration: number | null
  readonly status: SessionStatus
  readonly errors: number
  readonly release: string
  readonly environment: string
}

/** One bucket of a `sessions` item: sessions that started in one minute, by how they ended. */
export interface SessionBucket {
  /** The minute they started, ISO 8601 (seconds and below cut off). */
  readonly started: string
  readonly did: string | null
  readonly exited: number
  readonly errored: number
  readonly abnormal: number
  readonly crashed: number
}

/** A `sessions` item: sessions already counted by the SDK (request mode). */
export interface SessionAggregate {
  readonly kind: 'aggregate'
  readonly release: string
  readonly environment: string
  readonly buckets: readonly SessionBucket[]
}

/** A session record as accepted: an update or an aggregate. */
export type SessionRecord = SessionUpdate | SessionAggregate

/** The outcome of reading one item: the record, or why it is unusable (one message per problem). */
export type SessionParse =
  | { readonly ok: true; readonly value: SessionRecord }
  | { readonly ok: false; readonly errors: readonly string[] }

/** The instant of an ISO 8601 string or of seconds since the epoch (both are sent). */
function instant(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return Number.NaN
  return Date.parse(/[Zz]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`)
}

const isText = (value: unknown, max: number = SESSION_LIMITS.maxTextLength): value is string =>
  typeof value === 'string' && value.trim().length > 0 && value.length <= max

/** The release and environment of `attrs`, checked as Relay checks them. */
function attributes(payload: JsonObject, at: string, errors: string[]) {
  const attrs = payload['attrs']
  if (!isPlainObject(attrs)) {
    errors.push(`${at}.attrs must be an object with a release`)
    return { release: '', environment: DEFAULT_SESSION_ENVIRONMENT }
  }
  const release = attrs['release']
  if (!isText(release) || /[\n\r\t\\/]/.test(release) || ['.', '..', 'latest'].includes(release)) {
    errors.push(
      release === undefined || release === null || release === ''
        ? `${at}.attrs.release is required (sessions without a release are not counted)`
        : `${at}.attrs.release must be 1 to ${SESSION_LIMITS.maxTextLength} characters without slashes or line breaks, and not ".", ".." or "latest"`,
    )
  }
  const environment = attrs['environment']
  if (environment !== undefined && environment !== null && !isText(environment)) {
    errors.push(`${at}.attrs.environment must be 1 to ${SESSION_LIMITS.maxTextLength} characters`)
  }
  return {
    release: typeof release === 'string' ? release.trim() : '',
    environment: isText(environment) ? environment.trim() : DEFAULT_SESSION_ENVIRONMENT,
  }
}

/** A started time not in the future (clock drift allowed), or a problem. */
function startedAt(value: unknown, at: string, now: Date, errors: string[]): number {
  const t = instant(value)
  if (Number.isNaN(t)) {
    errors.push(`${at} must be an ISO 8601 date-time or seconds since the epoch`)
    return t
  }
  // Any past start counts in its minute (retention expires what is older than the project's
  // period); Relay's 5-day limit guards metric buckets tis does not have.
  if (t > now.getTime() + SESSION_LIMITS.maxFutureSeconds * 1000) {
    errors.push(`${at} is in the future`)
  }
  return t
}

const optionalText = (value: unknown, at: string, errors: string[]): string | null => {
  if (value === undefined || value === null) return null
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (!isText(value)) {
    errors.push(`${at} must be 1 to ${SESSION_LIMITS.maxTextLength} characters`)
    return null
  }
  return value
}

const count = (value: unknown, at: string, errors: string[]): number => {
  if (value === undefined || value === null) return 0
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > SESSION_LIMITS.maxCount
  ) {
    errors.push(`${at} must be an integer from 0 to ${SESSION_LIMITS.maxCount}`)
    return 0
  }
  return value
}

/** Reads a `session` payload (one update). */
export function readSessionUpdate(payload: JsonObject, now: Date, at = 'session'): SessionParse {
  const errors: string[] = []
  const { release, environment } = attributes(payload, at, errors)
  const sid = payload['sid']
  if (!isText(sid, 128))
    errors.push(`${at}.sid is required: the session's id, up to 128 characters`)
  const status = payload['status'] ?? 'ok'
  if (!(SESSION_STATUSES as readonly unknown[]).includes(status)) {
    errors.push(`${at}.status must be one of ${SESSION_STATUSES.join(', ')}`)
  }
  const started = startedAt(payload['started'], `${at}.started`, now, errors)
  const timestamp = payload['timestamp'] === undefined ? Number.NaN : instant(payload['timestamp'])
  const seq = payload['seq']
  if (
    seq !== undefined &&
    seq !== null &&
    (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
  ) {
    errors.push(`${at}.seq must be a non-negative integer`)
  }
  const duration = payload['duration']
  if (
    duration !== undefined &&
    duration !== null &&
    (typeof duration !== 'number' || !(duration >= 0))
  ) {
    errors.push(`${at}.duration must be a non-negative number of seconds`)
  }
  const init = payload['init']
  if (init !== undefined && init !== null && typeof init !== 'boolean') {
    errors.push(`${at}.init must be true or false`)
  }
  const errorCount = count(payload['errors'], `${at}.errors`, errors)
  const did = optionalText(payload['did'], `${at}.did`, errors)
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: {
      kind: 'update',
      sid: (sid as string).trim().toLowerCase(),
      did,
      seq: typeof seq === 'number' ? seq : null,
      init: init === true,
      started: new Date(started).toISOString(),
      timestamp: Number.isNaN(timestamp) ? null : new Date(timestamp).toISOString(),
      duration: typeof duration === 'number' ? duration : null,
      status: status as SessionStatus,
      errors: errorCount,
      release,
      environment,
    },
  }
}

/** Reads a `sessions` payload (aggregates). */
export function readSessionAggregate(
  payload: JsonObject,
  now: Date,
  at = 'sessions',
): SessionParse {
  const errors: string[] = []
  const { release, environment } = attributes(payload, at, errors)
  const list = payload['aggregates']
  if (!Array.isArray(list) || list.length === 0) {
    errors.push(`${at}.aggregates must be a non-empty array`)
    return { ok: false, errors }
  }
  if (list.length > SESSION_LIMITS.maxAggregates) {
    errors.push(
      `${at}.aggregates has ${list.length} buckets (at most ${SESSION_LIMITS.maxAggregates})`,
    )
    return { ok: false, errors }
  }
  const buckets: SessionBucket[] = []
  list.forEach((item, i) => {
    const here = `${at}.aggregates[${i}]`
    if (!isPlainObject(item)) {
      errors.push(`${here} must be an object`)
      return
    }
    const started = startedAt(item['started'], `${here}.started`, now, errors)
    const bucket = {
      started: Number.isNaN(started) ? '' : new Date(started - (started % 60_000)).toISOString(),
      did: optionalText(item['did'], `${here}.did`, errors),
      exited: count(item['exited'], `${here}.exited`, errors),
      errored: count(item['errored'], `${here}.errored`, errors),
      abnormal: count(item['abnormal'], `${here}.abnormal`, errors),
      crashed: count(item['crashed'], `${here}.crashed`, errors),
    }
    if (bucket.exited + bucket.errored + bucket.abnormal + bucket.crashed > 0) buckets.push(bucket)
  })
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, value: { kind: 'aggregate', release, environment, buckets } }
}
