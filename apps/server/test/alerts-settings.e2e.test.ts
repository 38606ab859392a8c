import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { ADMIN_TOKEN, createClient, SUITE_ENV } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { createLogger } from '../src/logger'
import { createServer, type TisServer } from '../src/server'

// The alerts settings the shared harness does not have: SMTP configured, private targets
// allowed, and every line the server logs (at debug) captured, to show a secret never reaches it.
describe('alerts with SMTP and private targets allowed', () => {
  const lines: string[] = []
  let server: TisServer
  let db: PGlite
  let url: string
  beforeAll(async () => {
    db = await PGlite.create()
    const store = createPgliteStore(db)
    await store.migrate()
    const config = loadConfig({
      ...SUITE_ENV,
      SERVICE_LOG_LEVEL: 'debug',
      SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
      SERVICE_SMTP_HOST: 'mail.example.com',
      SERVICE_SMTP_FROM: 'tis <alerts@example.com>',
      SERVICE_SMTP_PASSWORD: 'smtp-password-never-logged',
    })
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) })
    server = await createServer(config, { store, logger })
    url = (await server.listen()).url
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await db?.close()
  })

  it('accepts a loopback webhook and an email channel; the secret is in the 201 only, never logged', async () => {
    const c = createClient(url)
    const project = await c.createProject()
    const path = `/api/v1/projects/${project.id}/alert_channels`
    const hook = await c.api('POST', path, {
      token: ADMIN_TOKEN,
      json: { name: 'local', type: 'webhook', url: 'http://127.0.0.1:9/hook' },
    })
    expect(hook.status, hook.text).toBe(201)
    const secret = hook.body.secret as string
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    const mail = await c.api('POST', path, {
      token: ADMIN_TOKEN,
      json: { name: 'ops mail', type: 'email', to: 'ops@example.com, oncall@example.com' },
    })
    expect(mail.status, mail.text).toBe(201)
    expect(mail.body.alert_channel).toMatchObject({
      type: 'email',
      url: null,
      to: ['ops@example.com', 'oncall@example.com'],
    })
    const test = await c.api('POST', `${path}/${hook.body.alert_channel.id}/test`, {
      token: ADMIN_TOKEN,
    })
    expect(test.status).toBe(202)
    const listed = await c.api('GET', path, { token: ADMIN_TOKEN })
    expect(listed.body.alert_channels).toHaveLength(2)
    expect(listed.text).not.toContain(secret)
    const log = (
      await c.api('GET', `/api/v1/projects/${project.id}/alert_deliveries`, { token: ADMIN_TOKEN })
    ).text
    expect(log).not.toContain(secret)
    // The server did log (so the check below can fail), but neither secret.
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('')).not.toContain(secret)
    expect(lines.join('')).not.toContain('smtp-password-never-logged')
  })
})
