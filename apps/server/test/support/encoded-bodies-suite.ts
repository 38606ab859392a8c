import { deflateSync, gzipSync } from 'node:zlib'
import { ADMIN_TOKEN, createClient, freshIp, type Harness, unique } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

/**
 * `Content-Encoding: gzip` and `deflate` on the single-record endpoints, decoded like the batch
 * endpoint's (issue 17), and long strings cut rather than refused (point 4).
 */
export function describeEncodedBodies(harness: () => Harness) {
  const client = () => createClient(harness().url)

  /** Posts raw bytes with a key, as a client that compresses its bodies does. */
  async function post(path: string, key: string, body: Uint8Array, encoding?: string) {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Api-Key': key,
      'X-Forwarded-For': freshIp(),
    }
    if (encoding !== undefined) headers['Content-Encoding'] = encoding
    const r = await fetch(`${harness().url}${path}`, { method: 'POST', headers, body })
    const text = await r.text()
    return { status: r.status, body: text === '' ? null : JSON.parse(text) }
  }
  const json = (value: unknown) => Buffer.from(JSON.stringify(value))

  describe('compressed bodies on the single-record endpoints', () => {
    it.each([
      ['/api/v1/ingest_events', { event: { event_type: 'log', message: 'zipped' } }],
      ['/api/v1/check_ins', { check_in: { slug: 'zipped' } }],
      [
        '/api/v1/deployments',
        { deployment: { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1' } },
      ],
    ])('%s accepts gzip and deflate', async (path, body) => {
      const { key } = await client().projectWithKey()
      expect((await post(path, key, gzipSync(json(body)), 'gzip')).status).toBe(201)
      expect((await post(path, key, deflateSync(json(body)), 'deflate')).status).toBe(201)
    })

    it('/api/v1/mobile_ingest_tokens accepts gzip', async () => {
      const c = client()
      const project = await c.createProject(ADMIN_TOKEN, 'android')
      const { token } = await c.createKey(project.id)
      const request = {
        mobile_ingest_token: { platform: 'android', service: 'com.a', environment: 'prod' },
      }
      const r = await post('/api/v1/mobile_ingest_tokens', token, gzipSync(json(request)), 'gzip')
      expect(r.status).toBe(201)
      expect(r.body.platform).toBe('android')
    })

    it('stores what was compressed', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const message = unique('gzip log')
      await post(
        '/api/v1/ingest_events',
        key,
        gzipSync(json({ event: { event_type: 'log', message } })),
        'gzip',
      )
      const events = (
        await c.api('GET', `/api/v1/projects/${projectId}/events`, { token: ADMIN_TOKEN })
      ).body.events
      expect(events.map((e: { message: string }) => e.message)).toEqual([message])
    })

    it('a bad gzip is a 400 naming it; an unknown coding a 415; nothing is stored', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const body = json({ event: { event_type: 'log', message: 'plain' } })
      expect(await post('/api/v1/ingest_events', key, body, 'gzip')).toEqual({
        status: 400,
        body: {
          error: 'param is missing or the value is empty: event (the body is not valid gzip)',
        },
      })
      expect((await post('/api/v1/check_ins', key, body, 'deflate')).body.error).toBe(
        'param is missing or the value is empty: check_in (the body is not valid deflate)',
      )
      const brotli = await post('/api/v1/ingest_events', key, body, 'br')
      expect(brotli.status).toBe(415)
      expect(brotli.body.error).toMatch(/^Content-Encoding "br" is not supported/)
      const events = (
        await c.api('GET', `/api/v1/projects/${projectId}/events`, { token: ADMIN_TOKEN })
      ).body.events
      expect(events).toEqual([])
    })

    it('caps the body once decompressed (413), not only as sent', async () => {
      const { key } = await client().projectWithKey()
      // Under the suite's 64 KiB cap compressed, 200 KB once inflated.
      const bomb = gzipSync(json({ event: { event_type: 'log', message: 'x'.repeat(200_000) } }))
      expect(bomb.byteLength).toBeLessThan(65_536)
      expect(await post('/api/v1/ingest_events', key, bomb, 'gzip')).toEqual({
        status: 413,
        body: { error: 'request body is too large (maximum is 65536 bytes once decompressed)' },
      })
    })
  })

  describe('long strings are cut, not refused (point 4)', () => {
    it('a 1,100-character transaction_name and a 9,000-character request path', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const name = `GET /${'a'.repeat(1_095)}`
      const path = `/${'p'.repeat(8_999)}`
      const event = {
        event_type: 'transaction',
        message: name,
        transaction_name: name,
        context: { request: { path } },
      }
      const r = await c.ingest('/api/v1/ingest_events', key, { event })
      expect(r.status).toBe(201)
      const stored = (
        await c.api('GET', `/api/v1/projects/${projectId}/events/${r.body.id}`, {
          token: ADMIN_TOKEN,
        })
      ).body.event
      expect(stored.context.transaction_name).toBe(`${name.slice(0, 1_012)}…[truncated]`)
      expect(stored.context.request.path).toBe(`${path.slice(0, 8_180)}…[truncated]`)
      expect(stored.message).toBe(name)
    })
  })
}
