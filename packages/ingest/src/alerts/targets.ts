import { isIpLiteral, isPrivateAddress } from './addresses'

export { isIpLiteral, isPrivateAddress } from './addresses'

/**
 * Resolves a host name to every address it has (A and AAAA), as `node:dns` `lookup(host,
 * { all: true })` does; rejects when the name does not resolve. The engine imports no DNS
 * module: the server passes one (`apps/server/src/alert-resolver.ts`).
 */
export type HostResolver = (hostname: string) => Promise<readonly string[]>

/** How {@link checkAlertTarget} decides. */
export interface TargetPolicy {
  /** `SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS`: skip the address checks. */
  readonly allowPrivateTargets: boolean
  /**
   * Resolves host names. Without it a name cannot be checked, so a URL with a name (not an IP
   * literal) is refused unless private targets are allowed: fail closed.
   */
  readonly resolve?: HostResolver | undefined
}

/** The outcome of {@link checkAlertTarget}: the URL as parsed, or the 422 message. */
export type TargetCheck = { ok: true; url: string } | { ok: false; error: string }

const ALLOW = 'set SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS=true on the server to allow it'
const isLocalName = (host: string) => /(^|\.)localhost\.?$/i.test(host)

/**
 * Checks a webhook or Slack URL (`field` names it in messages): an http(s) URL without
 * credentials whose host is neither a private address literal (in any form the WHATWG URL
 * parser normalises: `http://2130706433/`, `http://0x7f.1/` and `http://[::ffff:7f00:1]/` are
 * all 127.0.0.1) nor a name that is `localhost` or resolves to any private address.
 */
export async function checkAlertTarget(
  field: string,
  text: string,
  policy: TargetPolicy,
): Promise<TargetCheck> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, error: `${field} must be an http or https URL` }
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return { ok: false, error: `${field} must be an http or https URL` }
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: `${field} must not contain credentials (user:password@)` }
  }
  if (policy.allowPrivateTargets) return { ok: true, url: url.href }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const refuse = (address: string) => ({
    ok: false as const,
    error: `${field} points to a private or local address (${address}); ${ALLOW}`,
  })
  if (isLocalName(host)) return refuse(host)
  if (isIpLiteral(host)) return isPrivateAddress(host) ? refuse(host) : { ok: true, url: url.href }
  if (!policy.resolve)
    return { ok: false, error: `${field} host ${host} cannot be checked; ${ALLOW}` }
  let addresses: readonly string[]
  try {
    addresses = await policy.resolve(host)
  } catch {
    return { ok: false, error: `${field} host ${host} does not resolve` }
  }
  if (addresses.length === 0) return { ok: false, error: `${field} host ${host} does not resolve` }
  const inside = addresses.find(isPrivateAddress)
  return inside ? refuse(`${host} resolves to ${inside}`) : { ok: true, url: url.href }
}
