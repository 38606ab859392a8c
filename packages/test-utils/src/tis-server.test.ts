import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTisServer, type TisServer } from './tis-server'

describe('startTisServer', () => {
  let server: TisServer

  beforeAll(async () => {
    server = await startTisServer()
  })
  afterAll(() => server?.stop())

  it('starts the real server, which accepts an event from a key it created', async () => {
    const { projectId, apiKey } = await server.createProjectWithKey('test-utils')
    expect(projectId).toMatch(/\S/)
    expect(apiKey).toMatch(/\S/)
    const response = await fetch(`${server.url}/api/v1/ingest_events`, {
      method: 'POST',
      headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: { event_type: 'error', message: 'hello from test-utils' } }),
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/)
    const { events } = await server.read(`/api/v1/projects/${projectId}/events`)
    expect(events.map((e: { message: string }) => e.message)).toEqual(['hello from test-utils'])
  })

  it('starts each server on an empty database of its own', async () => {
    const { projects } = await server.read('/api/v1/projects')
    expect(projects.map((p: { name: string }) => p.name)).toEqual(['test-utils'])
  })

  it('refuses management calls without the administrator token', async () => {
    const response = await fetch(`${server.url}/api/v1/projects`, {
      headers: { Authorization: 'Bearer tis_user_not-the-admin-token' },
    })
    expect(response.status).toBe(401)
    await expect(server.read('/api/v1/projects/not-a-project/events')).rejects.toThrow(/404/)
  })

  it('stops: the port no longer answers (and stopping again is harmless)', async () => {
    await server.stop()
    await expect(fetch(`${server.url}/api/v1/projects`)).rejects.toThrow()
    await server.stop()
  })
})
