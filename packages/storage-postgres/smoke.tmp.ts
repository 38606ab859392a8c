import { randomUUID } from 'node:crypto'
import { openPgliteStore } from './src/index'

const t0 = Date.now()
const store = await openPgliteStore(undefined)
console.log('open+migrate ms', Date.now() - t0)
await store.migrate()
const uid = randomUUID(),
  pid = randomUUID()
await store.createUser({ id: uid, email: 'A@x.io', tokenDigest: 'd1', createdAt: new Date() })
try {
  await store.createUser({
    id: randomUUID(),
    email: 'a@X.io',
    tokenDigest: 'd2',
    createdAt: new Date(),
  })
} catch (e) {
  console.log('conflict:', (e as Error).name, (e as { code: string }).code)
}
await store.createProject({
  id: pid,
  name: 'p',
  integrationKind: 'node',
  ownerId: uid,
  createdAt: new Date(),
})
const ev = (msg: string) =>
  ({
    event_type: 'error',
    message: msg,
    occurred_at: new Date().toISOString(),
    context: {},
  }) as never
const res = await store.writeBatch([
  {
    type: 'event',
    id: randomUUID(),
    projectId: pid,
    receivedAt: new Date(),
    occurredAt: new Date(),
    event: ev('boom\u0000x'),
    issue: { hash: 'h1', key: 'k', title: 't', level: 'error' },
    monitor: null,
    deployment: null,
  },
  {
    type: 'event',
    id: randomUUID(),
    projectId: pid,
    receivedAt: new Date(),
    occurredAt: new Date(),
    event: ev('boom'),
    issue: { hash: 'h1', key: 'k', title: 't', level: 'error' },
    monitor: {
      slug: 's',
      environment: 'prod',
      status: 'ok',
      health: 'ok',
      release: null,
      expectedIntervalSeconds: 60,
      durationMs: null,
      traceId: null,
      requestId: null,
      occurredAt: new Date(),
    },
    deployment: null,
  },
  {
    type: 'deployment',
    id: randomUUID(),
    projectId: pid,
    receivedAt: new Date(),
    deployment: {} as never,
    upsert: {
      repository: 'a/b',
      environment: 'prod',
      release: '1',
      commitSha: 'abcdef0',
      source: 'api',
      record: { branch: 'main' },
      deployedAt: new Date(),
    },
  },
])
console.log(res)
await store.close()
