// SERVICE_PROJECTION=worker on real PostgreSQL: the server acknowledges on the ingest log and
// projects nothing; reads wait out their bound and say how far behind they are; `tis worker`
// processes (two at once) project everything exactly once, and reads see it.

import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  type Harness,
  openPage,
  serverFetcher,
  signIn,
  startPostgresHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../src/cli/run'

describeWithTestDatabase('projection in tis worker processes', (baseUrl) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(baseUrl, {
      SERVICE_PROJECTION: 'worker',
      SERVICE_READ_BARRIER_MS: '300',
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000',
    })
  })
  afterAll(() => harness?.close())

  describe('with no projector running', () => {
    it('acknowledges, then reads answer within their bound with the lag headers', async () => {
      const http = createClient(harness.url)
      const { projectId, key } = await http.projectWithKey()
      const sent = await http.ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message: 'behind the log', fingerprint: 'w-1' },
      })
      expect(sent.status).toBe(201)
      const started = Date.now()
      const read = await http.api('GET', `/api/v1/projects/${projectId}/events/${sent.body.id}`, {
        token: ADMIN_TOKEN,
      })
      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
      expect(read.status).toBe(404)
      expect(Number(read.headers.get('x-tis-projection-lag-records'))).toBeGreaterThanOrEqual(1)
      expect(Number(read.headers.get('x-tis-projection-lag'))).toBeGreaterThanOrEqual(0)
      const ready = await http.api('GET', '/health/ready')
      expect(ready.body.projection.records).toBeGreaterThanOrEqual(1)

      // The dashboard says the page may miss records, and how many.
      const fetcher = serverFetcher(harness.url)
      const browser = await signIn(fetcher, ADMIN_TOKEN)
      const page = await openPage(fetcher, `/projects/${projectId}/activity`, browser)
      expect(page.status).toBe(200)
      expect(page.text).toMatch(/data-projection-lag="[\d.]+"/)
      expect(page.text).toMatch(/Processing is [\d.]+ s behind: \d+ recently received/)
    })
  })

  it('two tis worker processes project every record once; reads then see them without lag', async () => {
    const http = createClient(harness.url)
    const { projectId, key } = await http.projectWithKey()
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const r = await http.ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message: `storm ${i}`, fingerprint: 'w-storm' },
      })
      expect(r.status).toBe(201)
      ids.push(r.body.id as string)
    }
    let stop = () => {}
    const stopped = new Promise<void>((resolve) => {
      stop = resolve
    })
    const env = {
      ...process.env,
      PORT: '0',
      SERVICE_LOG_LEVEL: 'silent',
      DATABASE_URL: harness.databaseUrl ?? '',
    }
    const workers = [0, 1].map(() =>
      runCli(['worker'], { env, stdout: () => {}, stderr: () => {}, stop: stopped }),
    )
    const settled = await harness.server.engine.settled(30_000)
    stop()
    expect(await Promise.all(workers)).toEqual([0, 0])
    expect(settled).toBe(true)

    const read = await http.api('GET', `/api/v1/projects/${projectId}/events/${ids[39]}`, {
      token: ADMIN_TOKEN,
    })
    expect(read.status).toBe(200)
    expect(read.headers.get('x-tis-projection-lag')).toBeNull()
    const [counts] = await harness.query<{ events: number; issue_total: number }>(
      `select (select count(*)::int from events where project_id = $1) as events,
              (select sum(count)::int from issues where project_id = $1) as issue_total`,
      [projectId],
    )
    expect(counts).toEqual({ events: 40, issue_total: 40 })
  })
})
