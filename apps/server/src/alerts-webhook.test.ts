import { type AddressInfo, createServer } from 'node:net'
import { SIGNATURE_HEADER, signatureOf, type WebhookRequest } from '@tis/ingest'
import {
  type AlertReceiver,
  loadDocumentedVerifier,
  startAlertReceiver,
  type VerifyTisSignature,
} from '@tis/test-utils/alert-receiver'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFetchWebhookSend } from './alerts-webhook'

// The server's webhook sender against a real HTTP receiver on a local port (@tis/test-utils):
// what it posts, how it reports each answer, and the failures it rejects with.

let receiver: AlertReceiver
let verify: VerifyTisSignature
beforeAll(async () => {
  ;[receiver, verify] = await Promise.all([startAlertReceiver(), loadDocumentedVerifier()])
})
afterAll(() => receiver?.close())
beforeEach(() => receiver.reset())

const SECRET = 'whsec_test_secret'

/** A signed webhook request to the receiver, as the engine builds one. */
function request(overrides: Partial<WebhookRequest> = {}): WebhookRequest {
  const body = new TextEncoder().encode('{"id":"d1","type":"new_issue","text":"héllo"}')
  return {
    url: receiver.url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'tis-alerts/9.9.9',
      'X-Tis-Delivery': 'd1',
      'X-Tis-Event': 'new_issue',
      [SIGNATURE_HEADER]: signatureOf(body, SECRET),
    },
    body,
    timeoutMs: 5_000,
    ...overrides,
  }
}

const send = createFetchWebhookSend()

describe('createFetchWebhookSend', () => {
  it('posts the body bytes and headers as given, once, so the documented check verifies them', async () => {
    const sent = request()
    expect(await send(sent)).toEqual({ status: 200, retryAfter: null })
    expect(receiver.requests).toHaveLength(1)
    const [got] = receiver.requests
    if (!got) throw new Error('nothing received')
    expect(got.method).toBe('POST')
    expect(got.path).toBe('/hook')
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'tis-alerts/9.9.9',
      'x-tis-delivery': 'd1',
      'x-tis-event': 'new_issue',
    })
    expect(got.body.equals(Buffer.from(sent.body))).toBe(true)
    expect(verify(got.body, got.headers['x-tis-signature'], SECRET)).toBe(true)
  })

  it.each([
    ['a 2xx', 200, null],
    ['a 204 without a body', 204, null],
    ['a 4xx', 404, null],
    ['410 Gone', 410, null],
    ['a 5xx', 500, null],
    ['a 429 with its Retry-After', { status: 429, headers: { 'Retry-After': '120' } }, '120'],
    [
      'a 503 with a Retry-After date',
      { status: 503, headers: { 'Retry-After': 'Wed, 02 Dec 2026 09:00:00 GMT' } },
      'Wed, 02 Dec 2026 09:00:00 GMT',
    ],
  ] as const)('resolves %s with its status and Retry-After', async (_, answer, retryAfter) => {
    receiver.answer(answer)
    const status = typeof answer === 'number' ? answer : answer.status
    expect(await send(request())).toEqual({ status, retryAfter })
  })

  it('answers a redirect with its status and never follows it', async () => {
    receiver.answer({ status: 302, headers: { Location: `${receiver.url}/elsewhere` } })
    expect(await send(request())).toEqual({ status: 302, retryAfter: null })
    receiver.answer({ status: 307, headers: { Location: 'http://192.0.2.1/internal' } })
    expect(await send(request())).toEqual({ status: 307, retryAfter: null })
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook'])
  })

  it('rejects a receiver that never answers once the timeout passes', async () => {
    receiver.answer('hang')
    const started = Date.now()
    await expect(send(request({ timeoutMs: 300 }))).rejects.toThrow('no answer within 300 ms')
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('rejects an answer that comes after the timeout', async () => {
    receiver.answer({ status: 200, delayMs: 1_000 })
    await expect(send(request({ timeoutMs: 200 }))).rejects.toThrow('no answer within 200 ms')
  })

  it('rejects a refused connection with its cause', async () => {
    // A port nothing listens on, of its own: a connection to the receiver's origin that a timed
    // out request left in fetch's pool would fail differently ("other side closed").
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    await expect(send(request({ url: `http://127.0.0.1:${port}/hook` }))).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED', message: `connect ECONNREFUSED 127.0.0.1:${port}` },
    })
  })

  it('sends through the fetch it is given', async () => {
    const urls: string[] = []
    const through = createFetchWebhookSend((input, init) => {
      urls.push(String(input))
      return fetch(input, init)
    })
    expect(await through(request())).toEqual({ status: 200, retryAfter: null })
    expect(urls).toEqual([receiver.url])
    expect(receiver.requests).toHaveLength(1)
  })
})
