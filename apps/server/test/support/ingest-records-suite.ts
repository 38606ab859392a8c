import { ADMIN_TOKEN, createClient, type Harness, unique } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

const SHA_1 = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const SHA_2 = 'ffffffa1b2c3d4e5f60718293a4b5c6d7e8f9012'

/** What accepted requests leave in the database, read back with SQL, plus the key lifecycle. */
export function describeIngestRecords(harness: () => Harness) {
  const client = () => createClient(harness().url)
  const query = <T = Record<string, unknown>>(sql: string, params: unknown[]) =>
    harness().query<T>(sql, params)
  const error = (message: string, fingerprint?: string) => ({
    event: { event_type: 'error', message, ...(fingerprint ? { fingerprint } : {}) },
  })

  describe('project lifecycle and keys', () => {
    it('archive → 401; restore → the old key stays 401 and a new key is accepted', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const event = error('before archive')
      expect((await c.ingest('/api/v1/ingest_events', key, event)).status).toBe(201)

      const archived = await c.api('POST', `/api/v1/projects/${projectId}/archive`, {
        token: ADMIN_TOKEN,
      })
      expect(archived.status).toBe(200)
      expect(archived.body.project.status).toBe('archived')
      for (const path of ['/api/v1/ingest_events', '/api/v1/check_ins', '/api/v1/deployments']) {
        const r = await c.ingest(path, key, event)
        expect(r.status, path).toBe(401)
        expect(r.body).toEqual({ error: 'Unauthorized' })
      }
      const keyWhileArchived = await c.api('POST', `/api/v1/projects/${projectId}/api_keys`, {
        token: ADMIN_TOKEN,
      })
      expect(keyWhileArchived.status).toBe(422)

      const restored = await c.api('POST', `/api/v1/projects/${projectId}/restore`, {
        token: ADMIN_TOKEN,
      })
      expect(restored.status).toBe(200)
      expect(restored.body.project.status).toBe('active')
      expect((await c.ingest('/api/v1/ingest_events', key, event)).status).toBe(401)
      const fresh = await c.createKey(projectId)
      expect((await c.ingest('/api/v1/ingest_events', fresh.token, event)).status).toBe(201)
    })
  })

  describe('issue grouping', () => {
    // The grouping rule itself (fingerprint, else the message's first line) is grouping.test.ts
    // in @tis/ingest; over HTTP, with the issue list's answer, reads-suite.ts ('groups by
    // fingerprint, and by the first line of the message but not later lines').
    it('does not make issues of logs, and keeps projects apart', async () => {
      const c = client()
      const a = await c.projectWithKey()
      const b = await c.projectWithKey()
      await c.ingest('/api/v1/ingest_events', a.key, { event: { event_type: 'log', message: 'L' } })
      await c.ingest('/api/v1/ingest_events', a.key, error('Same'))
      await c.ingest('/api/v1/ingest_events', b.key, error('Same'))
      const rows = await query<{ project_id: string }>(
        'select project_id::text from issues where project_id = any($1::uuid[]) order by 1',
        [[a.projectId, b.projectId]],
      )
      expect(rows.map((r) => r.project_id).sort()).toEqual([a.projectId, b.projectId].sort())
    })
  })

  describe('monitors', () => {
    it('updates one monitor (slug + environment) from both check-in paths', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const slug = unique('nightly')
      const compact = { check_in: { slug, environment: 'prod', status: 'ok' } }
      expect((await c.ingest('/api/v1/check_ins', key, compact)).status).toBe(201)
      const viaEvent = {
        event: {
          event_type: 'check_in',
          message: 'nightly finished',
          check_in_slug: slug,
          check_in_status: 'error',
          environment: 'prod',
        },
      }
      expect((await c.ingest('/api/v1/ingest_events', key, viaEvent)).status).toBe(201)
      // No environment: the service's own (SERVICE_ENV=e2e) — a separate monitor stream.
      expect((await c.ingest('/api/v1/check_ins', key, { check_in: { slug } })).status).toBe(201)

      const monitors = await query(
        `select environment, status, last_status, check_in_count::int as check_ins
           from monitors where project_id = $1 order by environment`,
        [projectId],
      )
      expect(monitors).toEqual([
        { environment: 'e2e', status: 'ok', last_status: 'ok', check_ins: 1 },
        { environment: 'prod', status: 'error', last_status: 'error', check_ins: 2 },
      ])
      const history = await query<{ source: string }>(
        'select source from check_ins where project_id = $1 order by source',
        [projectId],
      )
      expect(history.map((r) => r.source)).toEqual(['check_in', 'check_in', 'event'])
    })
  })

  describe('deployments', () => {
    it('upserts by release, environment and repository, answering the same id', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const deployment = { release: '2.0.0', environment: 'prod', repository: 'acme/shop' }
      const first = await c.ingest('/api/v1/deployments', key, {
        deployment: { ...deployment, commit_sha: SHA_1 },
      })
      const second = await c.ingest('/api/v1/deployments', key, {
        DEPLOYMENT: { ...deployment, commitSha: SHA_2, repo: 'acme/shop' },
      })
      expect(first.status).toBe(201)
      expect(second.status).toBe(201)
      expect(second.body).toEqual(first.body)
      const rows = await query(
        'select id::text, commit_sha from deployments where project_id = $1',
        [projectId],
      )
      expect(rows).toEqual([{ id: first.body.id, commit_sha: SHA_2 }])
    })
  })

  describe('spans', () => {
    it('stores spans in the span store, not with events', async () => {
      const c = client()
      const { projectId, key } = await c.projectWithKey()
      const span = {
        event: {
          eventType: 'span',
          name: 'SELECT users',
          kind: 'db',
          traceId: 'trace-1',
          spanId: 'span-2',
          parentSpanId: 'span-1',
          startedAt: '2026-01-01T00:00:00.000Z',
          endedAt: '2026-01-01T00:00:00.250Z',
        },
      }
      const r = await c.ingest('/api/v1/ingest_events', key, span)
      expect(r.status).toBe(201)
      expect(r.body.type).toBe('span')
      const spans = await query(
        'select name, kind, trace_id, parent_span_id from spans where id = $1 and project_id = $2',
        [r.body.id, projectId],
      )
      expect(spans).toEqual([
        { name: 'SELECT users', kind: 'db', trace_id: 'trace-1', parent_span_id: 'span-1' },
      ])
      const events = await query('select id from events where project_id = $1', [projectId])
      expect(events).toEqual([])
    })
  })
}
