import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'

/** A Node request as a Fetch `Request` whose body streams from the socket as it is read. */
export function toRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string)
  }
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

/** Writes a Fetch `Response` out on a Node response: status, headers, then its bytes. */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer())
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(body)
}
