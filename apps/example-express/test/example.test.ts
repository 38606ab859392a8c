import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { consoleIntegration } from '@tis/console'
import { type Client, createClient } from '@tis/sdk'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../src/app'

// The example app, instrumented exactly as in src/main.ts, reports to a real tis server; what
// it sent is read back through the read API, as the dashboard would show it.
let tis: TisServer
let client: Client
let app: Server
let appUrl: string
let projectId: string

beforeAll(async () => {
  tis = await startTisServer()
  const project = await tis.createProjectWithKey('example-express')
  projectId = project.projectId
  client = createClient({
    baseUrl: tis.url,
    apiKey: project.apiKey,
    environment: 'test',
    release: '1.0.0',
    integrations: [consoleIntegration({ levels: ['error'] })],
  })
  app = createApp(client).listen(0)
  await new Promise((resolve) => app.once('listening', resolve))
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
})

afterAll(async () => {
  if (app) await new Promise((resolve) => app.close(resolve))
  await client?.close(2_000)
  await tis?.stop()
})

/** Reads `path` of the project until `done` holds (the SDK sends after each response ends). */
async function readUntil<T>(path: string, done: (body: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    await client.flush(5_000)
    const body = (await tis.read(`/api/v1/projects/${projectId}${path}`)) as T
    if (done(body) || Date.now() > deadline) return body
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

type Transaction = { name: string; count: number; error_count: number }
type Event = { message: string; level: string; request_id: string | null; event_type: string }

it('reports requests, the thrown error and the console.error to tis', async () => {
  expect((await fetch(`${appUrl}/health`)).status).toBe(200)
  expect((await fetch(`${appUrl}/orders/42`)).status).toBe(200)
  const checkout = await fetch(`${appUrl}/checkout`, { method: 'POST' })
  expect(checkout.status).toBe(500)
  expect(await checkout.json()).toEqual({ error: 'Payment provider unavailable' })
  expect((await fetch(`${appUrl}/inventory`)).status).toBe(200)

  const { transactions } = await readUntil<{ transactions: Transaction[] }>(
    '/transactions',
    (body) => body.transactions.length >= 3,
  )
  const byName = Object.fromEntries(transactions.map((t) => [t.name, t]))
  expect(Object.keys(byName).sort()).toEqual([
    'GET /inventory',
    'GET /orders/:id',
    'POST /checkout',
  ])
  expect(byName['GET /orders/:id']).toMatchObject({ count: 1, error_count: 0 })
  expect(byName['POST /checkout']).toMatchObject({ count: 1, error_count: 1 })

  const { issues } = await readUntil<{ issues: { title: string; count: number }[] }>(
    '/issues',
    (body) => body.issues.length > 0,
  )
  expect(issues).toEqual([
    expect.objectContaining({ title: 'Payment provider unavailable', count: 1 }),
  ])

  const { events: logs } = await readUntil<{ events: Event[] }>(
    '/events?event_type=log',
    (body) => body.events.length > 0,
  )
  expect(logs).toEqual([
    expect.objectContaining({ message: 'inventory sync is 42 minutes late', level: 'error' }),
  ])
  // The log is tied to the request that wrote it.
  const { events: requests } = await readUntil<{ events: Event[] }>(
    '/events?event_type=transaction',
    (body) => body.events.length >= 3,
  )
  const inventory = requests.find((e) => e.message === 'GET /inventory')
  expect(logs[0]?.request_id).toBeTruthy()
  expect(logs[0]?.request_id).toBe(inventory?.request_id)
})
