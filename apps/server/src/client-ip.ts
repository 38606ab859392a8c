import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/** Finds the client address of a request, for the authentication-failure limit. */
export type ClientIpResolver = (c: Context) => string | undefined

// IPv4 peers on a dual-stack socket appear as `::ffff:1.2.3.4`.
const normalize = (address: string) =>
  address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')

/** The socket peer's address, or `undefined` outside a real connection (e.g. `app.request()`). */
function socketAddress(c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address
    return address ? normalize(address) : undefined
  } catch {
    return undefined
  }
}

/**
 * Resolves the client IP: the socket address, or — only when the connecting peer is one of
 * `trustedProxies` (`*` trusts any peer) — the first `X-Forwarded-For` hop, i.e. the client as
 * the outermost proxy saw it. With no trusted proxies, `X-Forwarded-For` is ignored, so a client
 * cannot dodge the per-IP authentication-failure limit by forging it.
 */
export function createClientIpResolver(trustedProxies: readonly string[]): ClientIpResolver {
  const trustAny = trustedProxies.includes('*')
  const trusted = new Set(trustedProxies.map(normalize))
  return (c) => {
    const peer = socketAddress(c)
    const peerTrusted = trustAny || (peer !== undefined && trusted.has(peer))
    if (!peerTrusted) return peer
    const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    return first ? normalize(first) : peer
  }
}
