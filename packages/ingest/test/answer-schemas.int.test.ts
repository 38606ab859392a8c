// The management, source-settings, account, batch-ingest and health answers the engine serialises over this
// adapter (PGlite) parse with their `@tis/schema` schemas, which are strict: an undeclared field
// fails, so a serialiser that adds one is caught.

import {
  apiKeyListSchema,
  batchAcceptedSchema,
  batchRejectedSchema,
  createdApiKeySchema,
  createdUserSchema,
  eventFramesSchema,
  healthSchema,
  memberAddedAnswerSchema,
  memberListSchema,
  mobileTokenListSchema,
  projectAnswerSchema,
  projectListSchema,
  rateLimitAnswerSchema,
  readySchema,
  rotatedTokenSchema,
  sessionListSchema,
  sessionsEndedSchema,
  sourceSettingsAnswerSchema,
} from '@tis/schema'
import {
  bearer,
  openAdminTestEngine,
  TEST_ADMIN_TOKEN,
  type TestEngine,
} from '@tis/test-utils/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine, EngineResponse } from '../src/index'

const admin = bearer(TEST_ADMIN_TOKEN)

let harness: TestEngine
let engine: Engine
/** What the tests need of a zod schema (this package does not depend on zod itself). */
interface Schema<T = unknown> {
  parse(value: unknown): T
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } }
}

/** Every answer the tests below collect, with the schema it must parse with. */
const answers: { name: string; schema: Schema; body: unknown }[] = []
let params: { id: string }
let eventId: string

/** Expects `status` and records the body for the schema checks (the first test parses it). */
function keep<T>(name: string, schema: Schema<T>, response: EngineResponse, status = 200): T {
  expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(status)
  answers.push({ name, schema, body: response.body })
  return response.body as T
}

beforeAll(async () => {
  harness = await openAdminTestEngine()
  engine = harness.engine
  const m = engine.management
  const { project } = keep(
    'createProject',
    projectAnswerSchema,
    await m.createProject({
      headers: admin,
      body: { project: { name: 'answers', integration_kind: 'android' } },
    }),
    201,
  )
  params = { id: project.id }
  const on = (extra: object = {}) => ({ headers: admin, params, ...extra })
  keep('listProjects', projectListSchema, await m.listProjects({ headers: admin }))
  keep('getProject', projectAnswerSchema, await m.getProject(on()))
  const { token } = keep('createApiKey', createdApiKeySchema, await m.createApiKey(on()), 201)
  keep('listApiKeys', apiKeyListSchema, await m.listApiKeys(on()))
  const created = keep(
    'createUser',
    createdUserSchema,
    await m.createUser({ headers: admin, body: { user: { email: 'member@example.com' } } }),
    201,
  )
  const member = on({ body: { member: { email: 'member@example.com' } } })
  keep('addMember', memberAddedAnswerSchema, await m.addMember(member), 201)
  keep('addMember again', memberAddedAnswerSchema, await m.addMember(member), 200)
  keep('listMembers', memberListSchema, await m.listMembers(on()))
  const minted = await engine.ingest.mintMobileToken({
    headers: bearer(token),
    body: { mobile_ingest_token: { platform: 'android', service: 'app', environment: 'prod' } },
  })
  expect(minted.status).toBe(201)
  // An error event with a stack and a commit: the detail's `source_commit` and `frames`.
  const frames = [
    { function: 'handler', filename: '/app/src/x.ts', lineno: 10, colno: 5 },
    { filename: 'node:internal/process/task_queues', lineno: 95, colno: 5 },
  ]
  const error = await engine.ingest.ingestEvent({
    headers: bearer(token),
    body: {
      event: {
        event_type: 'error',
        message: 'boom',
        repository: 'acme/shop',
        commit_sha: 'a'.repeat(40),
        context: { exception: { class: 'Error', message: 'boom', frames } },
      },
    },
  })
  expect(error.status).toBe(201)
  eventId = (error.body as { id: string }).id
  const batch = (lines: object[]) =>
    engine.ingest.ingestEventBatch({
      headers: { ...bearer(token), 'content-type': 'application/x-ndjson' },
      text: lines.map((line) => JSON.stringify({ event: line })).join('\n'),
    })
  const line = (n: number, fields: object = {}) => ({
    event_id: `0190b1c2-3d4e-7f80-9a1b-2c3d4e5f60${70 + n}`,
    event_type: 'log',
    message: `line ${n}`,
    ...fields,
  })
  const spanLine = line(2, { event_type: 'span', name: 'db', trace_id: 't', span_id: 's' })
  keep('batch accepted', batchAcceptedSchema, await batch([line(1), spanLine]), 202)
  keep('batch duplicate', batchAcceptedSchema, await batch([line(1)]), 202)
  keep('batch rejected', batchRejectedSchema, await batch([line(3), { event_type: 'log' }]), 422)
  keep('listMobileTokens', mobileTokenListSchema, await m.listMobileTokens(on()))
  keep('getRateLimits', rateLimitAnswerSchema, await m.getRateLimits(on()))
  keep(
    'setRateLimits',
    rateLimitAnswerSchema,
    await m.setRateLimits(on({ body: { rate_limit: { requests: 50 } } })),
  )
  keep('archiveProject', projectAnswerSchema, await m.archiveProject(on()))
  keep('restoreProject', projectAnswerSchema, await m.restoreProject(on()))
  const source = engine.sourceSettings
  keep('getSourceSettings', sourceSettingsAnswerSchema, await source.getSourceSettings(on()))
  keep(
    'setSourceSettings',
    sourceSettingsAnswerSchema,
    await source.setSourceSettings(on({ body: { path_prefix: '/app/', context_lines: 3 } })),
  )
  const user = bearer(created.access_token)
  const account = engine.account
  await account.signIn(created.access_token, { ip: '192.0.2.7' })
  keep('listSessions', sessionListSchema, await account.listSessions({ headers: user }))
  keep('endSessions', sessionsEndedSchema, await account.endSessions({ headers: user }))
  keep('rotateToken', rotatedTokenSchema, await account.rotateToken({ headers: user }), 201)
  keep('readiness', readySchema, await engine.readiness())
}, 60_000)

afterAll(async () => {
  await harness?.close()
})

describe('management, source-settings, account and batch answers', () => {
  it('each parses with its strict schema', () => {
    expect(answers.length).toBeGreaterThanOrEqual(23)
    const failures = answers.flatMap(({ name, schema, body }) => {
      const parsed = schema.safeParse(body)
      return parsed.success ? [] : [`${name}: ${parsed.error.message}`]
    })
    expect(failures).toEqual([])
  })

  it('fails on a field the schema does not declare, at the top or nested', () => {
    for (const { name, schema, body } of answers) {
      expect(schema.safeParse({ ...(body as object), extra: 1 }).success, name).toBe(false)
    }
    const { body } = answers.find((a) => a.name === 'listMembers')!
    const [owner] = (body as { members: object[] }).members
    expect(memberListSchema.safeParse({ members: [{ ...owner, extra: 1 }] }).success).toBe(false)
    expect(memberListSchema.safeParse({ members: [owner] }).success).toBe(true)
  })

  it('fails on a field missing or renamed', () => {
    const { body } = answers.find((a) => a.name === 'getProject')!
    const { owner_id, ...rest } = (body as { project: Record<string, unknown> }).project
    expect(projectAnswerSchema.safeParse({ project: rest }).success).toBe(false)
    expect(projectAnswerSchema.safeParse({ project: { ...rest, owner: owner_id } }).success).toBe(
      false,
    )
  })

  it("an event detail's source_commit and frames parse with their schemas", async () => {
    const detail = await engine.reads.getEvent({
      headers: admin,
      params: { ...params, event_id: eventId },
    })
    expect(detail.status).toBe(200)
    const { source_commit, frames } = detail.body as Record<string, unknown>
    const parsed = eventFramesSchema.parse({ source_commit, frames })
    expect(parsed.source_commit).toEqual({
      repository: 'acme/shop',
      commit_sha: 'a'.repeat(40),
      from: 'event',
    })
    expect(parsed.frames.map((f) => f.source.status)).toEqual([
      'not_configured',
      'not_in_repository',
    ])
    const [frame] = parsed.frames
    expect(
      eventFramesSchema.safeParse({ source_commit, frames: [{ ...frame, extra: 1 }] }).success,
    ).toBe(false)
  })

  it('the liveness answer is exactly `{status: "ok"}`', () => {
    expect(healthSchema.safeParse({ status: 'ok' }).success).toBe(true)
    expect(healthSchema.safeParse({ status: 'ok', uptime: 1 }).success).toBe(false)
  })
})
