import { describe, expect, it } from 'vitest'
import { startupMessage } from './first-run'

describe('startupMessage', () => {
  const firstRun = { action: 'first-run', email: 'admin@localhost', token: 'tis_user_abc' } as const

  it('prints the administrator, the token once, and copy-paste next steps', () => {
    const text = startupMessage(firstRun, { url: 'http://localhost:3000', cli: 'pnpm tis' })
    expect(text).toContain('admin@localhost')
    expect(text?.match(/tis_user_abc/g)?.length).toBeGreaterThanOrEqual(3)
    expect(text).toContain('TIS_TOKEN=tis_user_abc pnpm tis projects create my-app --kind node')
    expect(text).toContain('TIS_TOKEN=tis_user_abc pnpm tis keys create <project-id>')
    expect(text).toContain('curl -i -X POST http://localhost:3000/api/v1/ingest_events')
    expect(text).not.toContain('TIS_URL')
  })

  it('adds TIS_URL when the server is not on the default address', () => {
    const text = startupMessage(firstRun, { url: 'http://localhost:4000' })
    expect(text).toContain('TIS_TOKEN=tis_user_abc TIS_URL=http://localhost:4000 pnpm tis')
  })

  it('says nothing on later runs and never prints a bootstrap token', () => {
    expect(startupMessage({ action: 'none' }, { url: 'x' })).toBeNull()
    const ensured = { action: 'token-ensured', email: 'ops@x.io', created: true } as const
    expect(startupMessage(ensured, { url: 'x' })).toBe(
      'Administrator ops@x.io signs in with SERVICE_BOOTSTRAP_ADMIN_TOKEN (user created).\n',
    )
  })
})
