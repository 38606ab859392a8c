import { KEEPALIVE_BUDGET } from './caps'
import type { CredentialSource } from './credentials'
import { createTransport, type TransportOptions } from './transport'
import type { RequestOutcome, Transport } from './transport-types'

/** Options of {@link makeFetchTransport}. */
export interface FetchTransportOptions extends TransportOptions {
  /** The server's base URL, e.g. `https://tis.example.com`. */
  readonly baseUrl: string
  /** Supplies the bearer credential (API key or mobile ingest token). */
  readonly credentials: CredentialSource
  /** The fetch implementation. @default globalThis.fetch */
  readonly fetch?: typeof fetch
}

/** The default transport: `POST {baseUrl}/api/v1/{endpoint}` with fetch. */
export function makeFetchTransport(options: FetchTransportOptions): Transport {
  const base = options.baseUrl.replace(/\/+$/, '')
  let keepaliveBytes = 0
  return createTransport(options, async (request, signal, refresh) => {
    const credential = await options.credentials(refresh)
    const size = request.body.length
    const keepalive = keepaliveBytes + size <= KEEPALIVE_BUDGET
    if (keepalive) keepaliveBytes += size
    try {
      const response = await (options.fetch ?? globalThis.fetch)(
        `${base}/api/v1/${request.endpoint}${request.batch ? '/batch' : ''}`,
        {
          method: 'POST',
          headers: {
            'Content-Type': `application/${request.batch ? 'x-ndjson' : 'json'}`,
            Authorization: `Bearer ${credential}`,
          },
          body: request.body,
          signal,
          keepalive,
        },
      )
      // Reading the body releases the connection back to the pool; a batch's 202 and 422 carry
      // one result per line (the transport reads them for a batch only).
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        lines: (await response.json().catch(() => {}))?.results,
      } as RequestOutcome
    } finally {
      if (keepalive) keepaliveBytes -= size
    }
  })
}
