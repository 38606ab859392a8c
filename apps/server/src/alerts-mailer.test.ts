import type { AddressInfo } from 'node:net'
import { alertEmail } from '@tis/ingest'
import { SMTPServer, type SMTPServerSession } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSmtpMailer } from './alerts-mailer'

// A real SMTP server (smtp-server) in the test process receives what the mailer sends.

interface Received {
  readonly from: string
  readonly to: string[]
  readonly user: string | undefined
  readonly raw: string
}

const USER = 'alerts'
const PASSWORD = 'correct horse battery staple'
const received: Received[] = []
let server: SMTPServer
let port: number

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const from = session.envelope.mailFrom
        received.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  port = (server.server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const SOURCE = {
  id: '0190a0a0-0000-7000-8000-0000000000aa',
  projectId: 'p1',
  projectName: 'checkout',
  ruleId: 'r1',
  ruleName: 'new errors',
  channelName: 'ops mail',
  trigger: 'new_issue' as const,
  payload: {
    issue: {
      id: 'i1',
      title: 'TypeError: x is undefined',
      level: 'error',
      status: 'unresolved',
      count: 1,
      first_seen_at: '2026-11-26T14:00:00.000Z',
      last_seen_at: '2026-11-26T14:00:00.000Z',
      last_release: '1.2.0',
      regression_count: 0,
    },
  },
  createdAt: new Date('2026-11-26T14:00:01.000Z'),
}

describe('createSmtpMailer', () => {
  it('delivers the alert email to every recipient, signed in, with its subject and body', async () => {
    const mailer = createSmtpMailer({
      host: '127.0.0.1',
      port,
      secure: false,
      user: USER,
      password: PASSWORD,
      from: 'tis <alerts@tis.example>',
    })
    await mailer.send(alertEmail(SOURCE, ['ops@example.com', 'dev@example.com']))
    mailer.close()
    const mail = received.at(-1)
    expect(mail).toMatchObject({
      from: 'alerts@tis.example',
      to: ['ops@example.com', 'dev@example.com'],
      user: USER,
    })
    const raw = mail?.raw ?? ''
    expect(raw).toMatch(/^To: ops@example\.com, dev@example\.com\r$/m)
    expect(raw).toMatch(/^From: tis <alerts@tis\.example>\r$/m)
    expect(raw).toMatch(/^Subject: \[tis\] New issue in checkout: TypeError: x is undefined\r$/m)
    expect(raw).toContain('multipart/alternative')
    expect(raw).toContain('Level: error')
    expect(raw).toContain(`Delivery ${SOURCE.id}`)
    expect(raw).toContain('Content-Type: text/html; charset=utf-8')
  })

  it('rejects when the server refuses the sign-in, without the password in the error', async () => {
    const mailer = createSmtpMailer({
      host: '127.0.0.1',
      port,
      secure: false,
      user: USER,
      password: 'wrong-password-123',
      from: 'alerts@tis.example',
    })
    const count = received.length
    const error = await mailer
      .send(alertEmail(SOURCE, ['ops@example.com']))
      .catch((e: unknown) => e)
    mailer.close()
    expect(error).toBeInstanceOf(Error)
    expect(String((error as Error).message)).toMatch(/Invalid login|535/)
    expect(JSON.stringify(error)).not.toContain('wrong-password-123')
    expect(String((error as Error).message)).not.toContain('wrong-password-123')
    expect(received).toHaveLength(count)
  })
})
