import type { FuzzReply, FuzzRequest } from './server'
import type { EndpointName } from './shapes'

/** The envelope key of each fuzzed management and read-API write. */
const ENVELOPES: Partial<Record<EndpointName, string>> = {
  createUser: 'user',
  createProject: 'project',
  createApiKey: 'api_key',
  addMember: 'member',
  setRateLimits: 'rate_limit',
  setSourceSettings: 'source_settings',
  updateIssue: 'issue',
  createAlertChannel: 'alert_channel',
  createAlertRule: 'alert_rule',
}
/** The writes whose fields may also be sent without their envelope. */
const BARE: readonly EndpointName[] = ['setSourceSettings', 'createAlertChannel', 'createAlertRule']

/** Answers a refused body may get: 400, or a refusal that comes before the body is read. */
const REFUSALS = [400, 401, 403, 404, 413]

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The one body rule of every management write (issue 18, docs/validation.md): a JSON body that
 * is not an object, lacks its envelope (source settings may go without one), or whose envelope
 * is `null`, `{}` or not an object, or no body at all, is a 400 naming the envelope — never a
 * 2xx or a 422. The
 * documented exceptions: `POST …/api_keys` takes no body or an empty envelope (defaults), and
 * `{"rate_limit": null}` clears every override. Returns the problems of one reply.
 */
export function bodyRuleProblems(
  endpoint: EndpointName,
  request: FuzzRequest,
  reply: FuzzReply,
): string[] {
  const key = ENVELOPES[endpoint]
  if (key === undefined || request.body instanceof Uint8Array) return []
  let body: unknown
  if (request.body === undefined || request.body.trim() === '') {
    if (endpoint === 'createApiKey') return []
    body = null
  } else {
    try {
      body = JSON.parse(request.body)
    } catch {
      return []
    }
  }
  if (!unusable(endpoint, key, body)) return []
  if (!REFUSALS.includes(reply.status)) {
    return [`an unusable ${key} body answered ${reply.status}, not 400`]
  }
  if (
    reply.status === 400 &&
    !reply.text.includes(`param is missing or the value is empty: ${key}`)
  ) {
    return [`the 400 does not name the ${key} envelope`]
  }
  return []
}

function unusable(endpoint: EndpointName, key: string, body: unknown): boolean {
  if (!isObject(body)) return true
  const upper = key.toUpperCase()
  const keys = Object.keys(body)
  const wrapped = keys.includes(key) || keys.includes(upper)
  if (!wrapped) return !BARE.includes(endpoint) || keys.length === 0
  if (keys.length !== 1) return false // another root key: a 422 of its own
  const envelope = body[keys[0]!]
  if (endpoint === 'setRateLimits' && envelope === null) return false
  if (endpoint === 'createApiKey' && isObject(envelope) && Object.keys(envelope).length === 0) {
    return false
  }
  return !isObject(envelope) || Object.keys(envelope).length === 0
}
