import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'

type Fields = Record<string, unknown>

/**
 * `POST …/issues/merge` end to end (docs/issues.md#merging-issues): the kept issue, the merged
 * ids' pointers for every operation on an issue, later events of a merged fingerprint, the
 * refusals, and the access rules.
 */
export function describeIssueMerge(harness: () => Harness) {
  it('merges issues into one; merged ids answer with pointers; later events join it', async () => {
    const c = createClient(harness().url)
    const [owner, member, stranger] = [
      await c.createUser(),
      await c.createUser(),
      await c.createUser(),
    ]
    const project = await c.createProject(owner.token)
    await c.api('POST', `/api/v1/projects/${project.id}/members`, {
      token: owner.token,
      json: { member: { email: member.email } },
    })
    const elsewhere = await c.createProject(stranger.token)
    const key = await c.createKey(project.id, owner.token)
    const otherKey = await c.createKey(elsewhere.id, stranger.token)
    const send = async (message: string, user: string, apiKey = key.token) => {
      const event = { event_type: 'error', message, user_id: user }
      const r = await c.ingest('/api/v1/ingest_events', apiKey, { event })
      expect(r.status).toBe(201)
    }
    for (const [message, user] of [
      ['Merge A', 'u1'],
      ['Merge A', 'u2'],
      ['Merge A', 'u2'],
      ['Merge B', 'u3'],
      ['Merge B', 'u1'],
      ['Merge C', 'u4'],
    ]) {
      await send(message!, user!)
    }
    await send('Elsewhere', 'x', otherKey.token)
    const base = `/api/v1/projects/${project.id}`
    const listed = async () =>
      (await c.api('GET', `${base}/issues?status=all`, { token: owner.token })).body
        .issues as Fields[]
    const id = async (title: string) => (await listed()).find((i) => i['title'] === title)!['id']
    const [a, b, cId] = [await id('Merge A'), await id('Merge B'), await id('Merge C')]
    const [foreign] = (
      await c.api('GET', `/api/v1/projects/${elsewhere.id}/issues`, { token: stranger.token })
    ).body.issues as Fields[]
    const merge = (json: unknown, token = member.token) =>
      c.api('POST', `${base}/issues/merge`, { token, json })

    const merged = await merge({ merge: { issue_ids: [b, a] } })
    expect(merged.status).toBe(200)
    expect(merged.body).toMatchObject({ issue: { id: a, count: 5, users: 3 }, merged: [b] })
    // The pointers: 301 for reads, 308 for writes; the same path and query under the kept issue.
    const manual = (method: string, path: string, json?: unknown) =>
      c.api(method, `${base}/issues/${b}${path}`, {
        token: member.token,
        redirect: 'manual',
        ...(json === undefined ? {} : { json }),
      })
    for (const [method, path, status, json] of [
      ['GET', '', 301],
      ['GET', '/comments', 301],
      ['GET', '/activity?limit=5', 301],
      ['PATCH', '', 308, { issue: { status: 'resolved' } }],
      ['POST', '/comments', 308, { comment: { body: 'hi' } }],
      ['DELETE', '/comments/0190b6e4-1a2b-7c3d-8e4f-5a6b7c8d9e0f', 308],
    ] as const) {
      const pointer = await manual(method, path, json)
      expect([method, path, pointer.status]).toEqual([method, path, status])
      expect(pointer.headers.get('location')).toBe(`${base}/issues/${a}${path}`)
      expect(pointer.body).toEqual({ error: `This issue was merged into ${a}`, merged_into: a })
    }
    // The events list of a merged issue's id points at the kept issue's.
    const events = await c.api('GET', `${base}/events?issue_id=${b}&limit=50`, {
      token: member.token,
      redirect: 'manual',
    })
    expect(events.status).toBe(301)
    expect(events.headers.get('location')).toBe(`${base}/events?issue_id=${a}&limit=50`)
    const followedEvents = await c.api('GET', `${base}/events?issue_id=${b}`, {
      token: member.token,
    })
    expect(followedEvents.body.events).toHaveLength(5)
    // Clients that follow them reach the kept issue, a write with its method and body.
    const followed = await c.api('GET', `${base}/issues/${b}`, { token: member.token })
    expect(followed.body.issue).toMatchObject({ id: a, count: 5 })
    const commented = await c.api('POST', `${base}/issues/${b}/comments`, {
      token: member.token,
      json: { comment: { body: 'Same bug as B' } },
    })
    expect(commented.status).toBe(201)
    expect(commented.body.comment.issue_id).toBe(a)
    // A user who may not see the project learns nothing of the merge.
    const hidden = await c.api('GET', `${base}/issues/${b}`, {
      token: stranger.token,
      redirect: 'manual',
    })
    expect(hidden.status).toBe(404)

    // Later events of B's fingerprint belong to A; the activity says who merged what.
    await send('Merge B', 'u9')
    expect((await listed()).map((i) => [i['title'], i['count']])).toEqual(
      expect.arrayContaining([
        ['Merge A', 6],
        ['Merge C', 1],
      ]),
    )
    expect(await listed()).toHaveLength(2)
    const activity = (await c.api('GET', `${base}/issues/${a}/activity`, { token: owner.token }))
      .body.activity as Fields[]
    expect(activity.find((e) => e['kind'] === 'merge')).toMatchObject({
      actor: member.email,
      data: { merged: [{ id: b, title: 'Merge B', count: 2 }] },
    })

    // A retried merge changes nothing; `into` keeps the one named.
    expect((await merge({ merge: { issue_ids: [a, b] } })).body.merged).toEqual([])
    const into = await merge({ merge: { issue_ids: [a, cId], into: cId } })
    expect(into.body).toMatchObject({ issue: { id: cId, count: 7 }, merged: [a] })

    const unknown = '0190b6e4-1a2b-7c3d-8e4f-5a6b7c8d9e0f'
    for (const [json, status, message] of [
      [
        { merge: { issue_ids: [cId] } },
        422,
        'merge.issue_ids must be an array of 2 to 100 issue ids',
      ],
      [
        { merge: { issue_ids: Array(101).fill(cId) } },
        422,
        'merge.issue_ids must be an array of 2 to 100 issue ids',
      ],
      [
        { merge: { issue_ids: [cId, 'nope'] } },
        422,
        'merge.issue_ids has "nope", which is not an issue id',
      ],
      [
        { merge: { issue_ids: [cId, a], into: unknown } },
        422,
        'merge.into must be one of merge.issue_ids',
      ],
      [
        { merge: { issue_ids: [cId, unknown] } },
        422,
        `merge.issue_ids has "${unknown}", which is not an issue of this project`,
      ],
      [
        { merge: { issue_ids: [cId, foreign!['id']] } },
        422,
        `merge.issue_ids has "${foreign!['id']}", which is not an issue of this project`,
      ],
      [
        { merge: { issue_ids: [cId, a], extra: 1 } },
        422,
        'merge.extra is not a permitted property',
      ],
      [{ issue_ids: [cId, a] }, 400, 'merge'],
    ] as const) {
      const refused = await merge(json)
      expect([JSON.stringify(json), refused.status]).toEqual([JSON.stringify(json), status])
      expect([...(refused.body.errors ?? []), refused.body.error].join('\n')).toContain(message)
    }
    expect((await merge({ merge: { issue_ids: [cId, a] } }, stranger.token)).status).toBe(404)
    expect((await c.api('POST', `${base}/issues/merge`, { json: {} })).status).toBe(401)
    // Nothing refused was written.
    expect((await listed()).map((i) => [i['id'], i['count']])).toEqual([[cId, 7]])
    expect((await c.api('GET', `${base}/issues/${a}`, { token: ADMIN_TOKEN })).status).toBe(200)
  })
}
