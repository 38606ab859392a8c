import { describe, expect, it } from 'vitest'
import { type EngineRequest, json } from '../http'
import type { ProjectAccess } from '../management/access'
import type { ProjectRecord } from '../ports'
import { createReadApi, type ReadApiOptions } from './api'

const project = { id: 'p1' } as ProjectRecord

/** Access that lets a request through when it carries an authorization header, else 401. */
const access: Pick<ProjectAccess, 'project'> = {
  project: (_manage, fn) => async (request: EngineRequest) =>
    (request.headers as Headers).get('authorization')
      ? fn(request, project, {} as never, false)
      : json(401, { error: 'Unauthorized' }),
}

const store = {
  findIssue: async () => null,
  findMergedIssue: async () => null,
} as unknown as ReadApiOptions['store']

describe('the read API behind the read barrier', () => {
  it('waits for the projection only once the caller may see the project', async () => {
    let waits = 0
    const barrier = {
      wait: async () => {
        waits++
        return { records: 4, seconds: 2.5 }
      },
    }
    const reads = createReadApi({ store, access, barrier })
    const refused = await reads.getIssue({ headers: new Headers(), params: { id: 'p1' } })
    expect(refused.status).toBe(401)
    expect(waits).toBe(0)
    const read = await reads.getIssue({
      headers: new Headers({ authorization: 'Bearer t' }),
      params: { id: 'p1', issue_id: 'x' },
    })
    expect(waits).toBe(1)
    expect(read.status).toBe(404)
    expect(read.headers).toMatchObject({
      'X-Tis-Projection-Lag': '2.5',
      'X-Tis-Projection-Lag-Records': '4',
    })
  })

  it('adds no lag headers when the projection caught up in time', async () => {
    const reads = createReadApi({ store, access, barrier: { wait: async () => null } })
    const read = await reads.getIssue({
      headers: new Headers({ authorization: 'Bearer t' }),
      params: { id: 'p1', issue_id: 'x' },
    })
    expect(read.status).toBe(404)
    expect(Object.keys(read.headers)).not.toContain('X-Tis-Projection-Lag')
  })
})
