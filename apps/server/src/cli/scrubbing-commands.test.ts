import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT } from './run'

const PROJECT_ID = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const SETTINGS = {
  enabled: true,
  extra_fields: ['ssn'],
  safe_fields: [],
  scrub_ip_addresses: false,
}

async function run(
  argv: string[],
  answer: { status: number; body: unknown } = { status: 200, body: { data_scrubbing: SETTINGS } },
) {
  const r = await runAgainstFakeServer(argv, answer, {
    TIS_TOKEN: 'tis_user_t',
    TIS_URL: 'http://tis.test',
  })
  return { ...r, sent: r.sent.map(({ headers: _, ...request }) => request) }
}

const url = `http://tis.test/api/v1/projects/${PROJECT_ID}/data_scrubbing`

describe('tis scrubbing', () => {
  it('gets the settings', async () => {
    const r = await run(['scrubbing', 'get', PROJECT_ID])
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent).toEqual([{ method: 'GET', url, body: undefined }])
    expect(r.stdout).toContain('enabled:            yes')
    expect(r.stdout).toContain('extra_fields:       ssn')
    expect(r.stdout).toContain('safe_fields:        (none)')
  })

  it('sends only the given flags, lists split on commas and "" clearing one', async () => {
    const r = await run([
      'scrubbing',
      'set',
      PROJECT_ID,
      '--extra-fields',
      'ssn, customer_note',
      '--safe-fields',
      '',
      '--scrub-ip-addresses',
      'yes',
    ])
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent).toEqual([
      {
        method: 'PUT',
        url,
        body: {
          data_scrubbing: {
            extra_fields: ['ssn', 'customer_note'],
            safe_fields: [],
            scrub_ip_addresses: true,
          },
        },
      },
    ])
  })

  it('refuses a set without a flag or with a flag that is not a boolean, sending nothing', async () => {
    for (const argv of [
      ['scrubbing', 'set', PROJECT_ID],
      ['scrubbing', 'set', PROJECT_ID, '--enabled', 'maybe'],
    ]) {
      const r = await run(argv)
      expect(r.code).toBe(EXIT.usage)
      expect(r.sent).toEqual([])
    }
  })

  it("prints the server's refusal and exits with the API code", async () => {
    const r = await run(['scrubbing', 'set', PROJECT_ID, '--enabled', 'false'], {
      status: 403,
      body: { error: 'Forbidden' },
    })
    expect(r.code).toBe(EXIT.api)
    expect(r.stderr).toContain('Forbidden')
  })
})
