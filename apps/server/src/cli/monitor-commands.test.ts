import { describe, expect, it } from 'vitest'
import { EXIT, runCli } from './run'

const PROJECT = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const MONITOR_ID = '01a203af-0000-7000-8000-00000000000a'
const BASE = `http://tis.test/api/v1/projects/${PROJECT}/monitors`

const monitor = (environment: string, id = MONITOR_ID) => ({
  id,
  slug: 'nightly',
  environment,
  status: 'error',
  last_status: 'error',
  last_check_in_at: '2026-06-01T02:01:00.000Z',
  expected_interval_seconds: 86400,
  next_expected_at: '2026-06-02T02:01:00.000Z',
  missed_after: '2026-06-02T14:01:00.000Z',
  check_in_count: 2,
})
const HISTORY = {
  check_ins: [
    {
      id: 'c2',
      occurred_at: '2026-06-01T02:01:00.000Z',
      status: 'error',
      duration_ms: null,
      environment: 'production',
      release: 'v42',
      trace_id: 'trace-err',
      source: 'event',
    },
    {
      id: 'c1',
      occurred_at: '2026-06-01T02:00:00.000Z',
      status: 'ok',
      duration_ms: 5300,
      environment: 'production',
      release: null,
      trace_id: null,
      source: 'check_in',
    },
  ],
  next_cursor: 'n1',
}

/** The CLI against a fake server routing by URL; resolves the output and the URLs requested. */
async function run(argv: string[], routes: Record<string, { status: number; body: unknown }>) {
  const urls: string[] = []
  let stdout = ''
  let stderr = ''
  const fetch = (async (url: string) => {
    urls.push(url)
    const answer = routes[url] ?? { status: 404, body: { error: 'Not found' } }
    return new Response(JSON.stringify(answer.body), { status: answer.status })
  }) as typeof globalThis.fetch
  const code = await runCli(argv, {
    env: { TIS_TOKEN: 'tis_user_t', TIS_URL: 'http://tis.test' },
    fetch,
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
  })
  return { code, stdout, stderr, urls }
}

describe('tis monitors check-ins', () => {
  it('reads the history of a monitor id with the filters, as a table under the monitor', async () => {
    const history = `${BASE}/${MONITOR_ID}/check_ins?status=error&since=2026-06-01T00%3A00%3A00Z&limit=5`
    const r = await run(
      [
        'monitors',
        'check-ins',
        MONITOR_ID,
        '--project',
        PROJECT,
        '--status',
        'error',
        '--since',
        '2026-06-01T00:00:00Z',
        '--limit',
        '5',
      ],
      {
        [`${BASE}/${MONITOR_ID}`]: { status: 200, body: { monitor: monitor('production') } },
        [history]: { status: 200, body: HISTORY },
      },
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(EXIT.ok)
    expect(r.urls).toEqual([`${BASE}/${MONITOR_ID}`, history])
    expect(r.stdout).toBe(
      [
        'nightly (production): error; 2 check-ins, last 2026-06-01T02:01:00.000Z, next expected 2026-06-02T02:01:00.000Z, missed after 2026-06-02T14:01:00.000Z',
        '',
        'OCCURRED                  STATUS  DURATION  ENVIRONMENT  RELEASE  TRACE      SOURCE',
        '2026-06-01T02:01:00.000Z  error   -         production   v42      trace-err  event',
        '2026-06-01T02:00:00.000Z  ok      5300 ms   production   -        -          check_in',
        'More: repeat with --cursor n1',
        '',
      ].join('\n'),
    )
  })

  it('finds a slug in its one environment, or in the one --environment names; --json is the API answer', async () => {
    const routes = {
      [`${BASE}?slug=nightly&limit=200`]: { status: 200, body: { monitors: [monitor('prod')] } },
      [`${BASE}?slug=nightly&environment=prod&limit=200`]: {
        status: 200,
        body: { monitors: [monitor('prod')] },
      },
      [`${BASE}/${MONITOR_ID}/check_ins`]: { status: 200, body: HISTORY },
    }
    const bySlug = await run(['monitors', 'check-ins', 'nightly', '--project', PROJECT], routes)
    expect(bySlug.code).toBe(EXIT.ok)
    expect(bySlug.stdout).toContain('nightly (prod): error')
    const json = await run(
      ['monitors', 'check-ins', 'nightly', '--project', PROJECT, '--environment', 'prod', '--json'],
      routes,
    )
    expect(json.urls[0]).toBe(`${BASE}?slug=nightly&environment=prod&limit=200`)
    expect(JSON.parse(json.stdout)).toEqual(HISTORY)
  })

  it('asks for --environment when the slug runs in several, and says when there is none', async () => {
    const ambiguous = await run(['monitors', 'check-ins', 'nightly', '--project', PROJECT], {
      [`${BASE}?slug=nightly&limit=200`]: {
        status: 200,
        body: { monitors: [monitor('staging', 'a'), monitor('production', 'b')] },
      },
    })
    expect(ambiguous.code).toBe(EXIT.api)
    expect(ambiguous.stderr).toBe(
      'tis: monitor nightly runs in several environments (staging, production): add --environment <name>\n',
    )
    const none = await run(
      ['monitors', 'check-ins', 'nightly', '--project', PROJECT, '--environment', 'qa'],
      {
        [`${BASE}?slug=nightly&environment=qa&limit=200`]: { status: 200, body: { monitors: [] } },
      },
    )
    expect(none.code).toBe(EXIT.api)
    expect(none.stderr).toBe(`tis: no monitor nightly in environment qa in project ${PROJECT}\n`)
    expect(none.urls).toHaveLength(1)
  })

  it('looks a UUID that is no monitor id up as a slug', async () => {
    const slug = '01a203af-0000-7000-8000-0000000000ff'
    const r = await run(['monitors', 'check-ins', slug, '--project', PROJECT], {
      [`${BASE}?slug=${slug}&limit=200`]: { status: 200, body: { monitors: [monitor('prod')] } },
      [`${BASE}/${MONITOR_ID}/check_ins`]: { status: 200, body: HISTORY },
    })
    expect(r.code).toBe(EXIT.ok)
    expect(r.urls).toEqual([
      `${BASE}/${slug}`,
      `${BASE}?slug=${slug}&limit=200`,
      `${BASE}/${MONITOR_ID}/check_ins`,
    ])
  })

  it('needs --project (a usage error, nothing sent)', async () => {
    const r = await run(['monitors', 'check-ins', 'nightly'], {})
    expect(r.code).toBe(EXIT.usage)
    expect(r.stderr).toContain('monitors check-ins needs --project <project_id>')
    expect(r.urls).toEqual([])
  })
})
