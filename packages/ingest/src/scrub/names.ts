// The name lists behind the key rules. Each is compared in word-split form (see `words.ts`).
import { checkInSchema, deploymentSchema, EVENT_FIELDS } from '@tis/schema'
import { splitWords } from './words'

/** Built-in sensitive key names; a key containing one as a run of its words is filtered. */
export const SENSITIVE_NAMES: readonly string[] = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'api_key',
  'apikey',
  'access_token',
  'auth',
  'authorization',
  'credentials',
  'private_key',
  'token',
  'cookie',
  'set-cookie',
  'session',
]

/** Correlation and contract fields: kept as sent at any depth, never scanned. */
export const IDENTIFIER_NAMES: readonly string[] = [
  'session_id',
  'request_id',
  'trace_id',
  'user_id',
  'span_id',
  'parent_span_id',
  'event_id',
  'fingerprint',
  'check_in_slug',
  'monitor_slug',
  'commit_sha',
  'release',
  'environment',
]

/** Keys whose values are IP addresses (filtered only when `scrubIpAddresses` is on). */
export const IP_KEY_NAMES: readonly string[] = [
  'ip_address',
  'ip',
  'remote_addr',
  'client_ip',
  'x-forwarded-for',
  'x-real-ip',
  'forwarded',
  'cf-connecting-ip',
  'true-client-ip',
  'client.address',
  'network.peer.address',
  'net.peer.ip',
  'http.client_ip',
]

/** Keys whose string values are URL query strings (`a=b&c=d`). */
export const QUERY_KEY_NAMES: readonly string[] = ['query_string', 'query']

/** The documented properties of an event's `context` (section 2.2). */
export const CONTEXT_FIELDS: readonly string[] = [
  'environment',
  'release',
  'branch',
  'service',
  'commit_sha',
  'repository',
  'trace_id',
  'request_id',
  'session_id',
  'user_id',
  'transaction_name',
  'duration_ms',
  'value',
  'unit',
  'tags',
  'exception',
  'request',
  'check_in_slug',
  'check_in_status',
  'expected_interval_seconds',
  'metadata',
  'span_id',
  'parent_span_id',
  'kind',
  'span_kind',
  'started_at',
  'ended_at',
  'monitor_slug',
  'status',
  'name',
]

/** The words of each name joined by `_`: the form keys are looked up in sets by. */
export const snakeOf = (name: string) => splitWords(name).join('_')
const snakeSet = (names: readonly string[]) => new Set(names.map(snakeOf))

/** {@link IDENTIFIER_NAMES} in `_`-joined word form. */
export const IDENTIFIERS: ReadonlySet<string> = snakeSet(IDENTIFIER_NAMES)
/** {@link IP_KEY_NAMES} in `_`-joined word form. */
export const IP_KEYS: ReadonlySet<string> = snakeSet(IP_KEY_NAMES)
/** {@link QUERY_KEY_NAMES} in `_`-joined word form. */
export const QUERY_KEYS: ReadonlySet<string> = snakeSet(QUERY_KEY_NAMES)
/** The documented event fields (`EVENT_FIELDS`), in `_`-joined word form. */
export const EVENT_FIELD_SET: ReadonlySet<string> = snakeSet(EVENT_FIELDS)
/** {@link CONTEXT_FIELDS} in `_`-joined word form. */
export const CONTEXT_FIELD_SET: ReadonlySet<string> = snakeSet(CONTEXT_FIELDS)
/** The documented check-in fields, in `_`-joined word form. */
export const CHECK_IN_FIELD_SET: ReadonlySet<string> = snakeSet(Object.keys(checkInSchema.shape))
/** The documented deployment fields, in `_`-joined word form. */
export const DEPLOYMENT_FIELD_SET: ReadonlySet<string> = snakeSet(
  Object.keys(deploymentSchema.shape),
)
