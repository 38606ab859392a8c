import {
  checkInPageSchema,
  deploymentPageSchema,
  eventDetailSchema,
  eventPageSchema,
  issueAnswerSchema,
  issuePageSchema,
  latencySeriesSchema,
  metricSeriesSchema,
  monitorAnswerSchema,
  monitorPageSchema,
  releaseDetailSchema,
  releasePageSchema,
  storedEventSchema,
  traceDetailSchema,
  traceListSchema,
  transactionListSchema,
} from '@tis/schema'
import { describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { FIXTURE_STORE, uuidOf } from '../../test/read-fixtures'
import type { EngineRequest } from '../http'
import type { ProjectAccess } from '../management/access'
import type { ProjectRecord } from '../ports'
import { createReadApi, type ReadApi } from './api'

// Every answer of the read API, serialised from stored records by the real read operations,
// parses with its schema of `@tis/schema` — strict objects, so an undeclared field fails.

const project = { id: uuidOf(100) } as ProjectRecord
const access: Pick<ProjectAccess, 'project'> = {
  project: (_manage, fn) => (request) => fn(request, project, {} as never, false),
}
const reads = createReadApi({
  store: FIXTURE_STORE,
  access,
  now: () => new Date('2026-06-01T12:30:00.000Z'),
})

const WINDOW = { since: '2026-06-01T12:00:00Z', until: '2026-06-01T12:15:00Z', interval: '5m' }
const params = {
  id: project.id,
  issue_id: uuidOf(1),
  event_id: uuidOf(2),
  monitor_id: uuidOf(4),
  trace_id: 'trace-1',
  version: 'web@1.2.0',
}

/** [operation, query, body, answer schema, the arrays that must not be empty] */
const CASES: [keyof ReadApi, Record<string, string>, unknown, z.ZodType, string[]][] = [
  ['listIssues', {}, undefined, issuePageSchema, ['issues']],
  ['listIssues', { sparkline: '24h' }, undefined, issuePageSchema, ['issues']],
  ['getIssue', {}, undefined, issueAnswerSchema, []],
  ['updateIssue', {}, { issue: { status: 'resolved' } }, issueAnswerSchema, []],
  ['listEvents', {}, undefined, eventPageSchema, ['events']],
  ['getEvent', {}, undefined, eventDetailSchema, ['related']],
  ['listMonitors', {}, undefined, monitorPageSchema, ['monitors']],
  ['getMonitor', {}, undefined, monitorAnswerSchema, []],
  ['listCheckIns', {}, undefined, checkInPageSchema, ['check_ins']],
  ['listDeployments', {}, undefined, deploymentPageSchema, ['deployments']],
  ['listTransactions', WINDOW, undefined, transactionListSchema, ['transactions']],
  ['getMetric', { ...WINDOW, name: 'm' }, undefined, metricSeriesSchema, ['buckets']],
  ['getTransactionLatency', WINDOW, undefined, latencySeriesSchema, ['buckets']],
  ['listTraces', {}, undefined, traceListSchema, ['traces']],
  ['getTrace', {}, undefined, traceDetailSchema, ['spans', 'events']],
  ['listReleases', {}, undefined, releasePageSchema, ['releases']],
  ['getRelease', {}, undefined, releaseDetailSchema, []],
]

async function answer(operation: keyof ReadApi, query: Record<string, string>, body?: unknown) {
  const request: EngineRequest = { headers: {}, params, query, ...(body ? { body } : {}) }
  const response = await reads[operation](request)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body as Record<string, unknown>
}

/** The first object one level inside an answer: the first item of a page, else a member. */
function innerObject(answer: Record<string, unknown>): Record<string, unknown> {
  for (const value of Object.values(answer)) {
    const item: unknown = Array.isArray(value) ? value[0] : value
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      return item as Record<string, unknown>
    }
  }
  throw new Error('the answer holds no object')
}

describe('the read API answers', () => {
  it.each(CASES)('%s %j parses with its strict schema', async (op, query, body, schema, lists) => {
    const json = await answer(op, query, body)
    const parsed = schema.safeParse(json)
    expect(parsed.success ? [] : parsed.error.issues).toEqual([])
    for (const key of lists) expect(json[key], key).not.toHaveLength(0)
  })

  it.each(CASES)(
    '%s %j with an undeclared field fails its schema',
    async (op, query, b, schema) => {
      const top = await answer(op, query, b)
      expect(schema.safeParse({ ...top, undeclared: 1 }).success).toBe(false)
      const nested = structuredClone(top)
      innerObject(nested)['undeclared'] = 1
      expect(schema.safeParse(nested).success).toBe(false)
    },
  )

  it('fails an answer that drops or renames a field', async () => {
    const { event } = await answer('getEvent', {})
    const { level: _dropped, ...rest } = event as Record<string, unknown>
    expect(storedEventSchema.safeParse(event).success).toBe(true)
    expect(storedEventSchema.safeParse(rest).success).toBe(false)
    expect(storedEventSchema.safeParse({ ...rest, lvl: 'error' }).success).toBe(false)
  })
})
