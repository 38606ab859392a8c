import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { openApiToMarkdown } from '@tis/docs-site'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { Marked, type Tokens } from 'marked'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverOpenApiDocument } from '../src/openapi'
import { storedZip } from './support/sourcemaps-clients'

/** Uploads a one-file artifact bundle (a bare zip) as sentry-cli would; resolves its id. */
async function uploadBundle(url: string, token: string, projectId: string): Promise<string> {
  const manifest = { files: { 'a.js': { url: '~/a.js', type: 'source', headers: {} } } }
  const zip = storedZip({ 'manifest.json': JSON.stringify(manifest), 'a.js': 'x' })
  const sha1 = createHash('sha1').update(zip).digest('hex')
  const form = new FormData()
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), sha1)
  const headers = { Authorization: `Bearer ${token}` }
  await fetch(`${url}/api/0/organizations/x/chunk-upload/`, { method: 'POST', headers, body: form })
  const body = { checksum: sha1, chunks: [sha1], projects: [projectId], version: '1.0.0' }
  await fetch(`${url}/api/0/organizations/x/artifactbundle/assemble/`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const list = await fetch(`${url}/api/v1/projects/${projectId}/artifact_bundles`, { headers })
  const { artifact_bundles } = (await list.json()) as { artifact_bundles: { id: string }[] }
  return artifact_bundles[0]?.id ?? ''
}

// Runs the curl example of every endpoint on the docs site's HTTP API page (generated from the
// server's whole OpenAPI document) against a real server, with the shell variables the page
// names set to real ids, in page order. Every example must succeed (2xx). The one allowed
// refusal depends on the server's configuration, not on the example: storing a GitHub token
// needs SERVICE_SECRET_KEY. Skipped, with this reason, when curl is missing.
const HAS_CURL = spawnSync('curl', ['--version']).status === 0
// Sentry's organization endpoint answers 404 by design (the JS uploader then keeps its URL).
const CONFIG_REFUSALS = [/SERVICE_SECRET_KEY/, /tis has no organizations/]

describe.skipIf(!HAS_CURL)('HTTP API page: curl examples (needs curl)', () => {
  let server: TisServer
  const env: Record<string, string> = {}
  /** The issue the merge example folds into $ISSUE_ID (its example ids are the schema's). */
  let mergedAway = ''

  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  async function call(path: string, token: string, body?: unknown): Promise<any> {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${text}`)
    return JSON.parse(text)
  }

  beforeAll(async () => {
    server = await startTisServer()
    // An android project, so that the mobile token example can mint one.
    const { projectId, apiKey } = await server.createProjectWithKey('examples', 'android')
    const admin = server.adminToken
    const extraKey = await call(`/api/v1/projects/${projectId}/api_keys`, admin, {
      api_key: { name: 'to revoke' },
    })
    const mobile = await call('/api/v1/mobile_ingest_tokens', apiKey, {
      mobile_ingest_token: { platform: 'android', service: 'app', environment: 'production' },
    })
    // "boom" has two events: the merge example keeps it and takes in "merged away".
    for (const message of ['boom', 'boom', 'merged away']) {
      await call('/api/v1/ingest_events', apiKey, { event: { event_type: 'error', message } })
    }
    await call('/api/v1/ingest_events', apiKey, {
      event: {
        event_type: 'span',
        trace_id: 'trace-1',
        span_id: 'span-1',
        name: 'GET /',
        duration_ms: 5,
      },
    })
    await call('/api/v1/check_ins', apiKey, { check_in: { slug: 'nightly' } })
    const { events } = await server.read(`/api/v1/projects/${projectId}/events?event_type=error`)
    const issueOf = (message: string) =>
      events.find((e: { message: string }) => e.message === message).issue_id
    mergedAway = issueOf('merged away')
    const { monitors } = await server.read(`/api/v1/projects/${projectId}/monitors`)
    const tokens = await server.read(`/api/v1/projects/${projectId}/mobile_tokens`)
    const { alert_channel: channel } = await call(
      `/api/v1/projects/${projectId}/alert_channels`,
      admin,
      {
        name: 'examples',
        type: 'webhook',
        url: 'https://203.0.113.10/hooks/examples',
      },
    )
    const { alert_rule: rule } = await call(`/api/v1/projects/${projectId}/alert_rules`, admin, {
      name: 'examples',
      trigger: 'new_issue',
      channel_ids: [channel.id],
    })
    const { comment } = await call(
      `/api/v1/projects/${projectId}/issues/${issueOf('boom')}/comments`,
      admin,
      { comment: { body: 'An example comment' } },
    )
    const { project } = await server.read(`/api/v1/projects/${projectId}`)
    const bundleId = await uploadBundle(server.url, admin, projectId)
    Object.assign(env, {
      TIS_URL: server.url,
      PROJECT_NUMBER: String(project.number),
      TIS_TOKEN: admin,
      API_KEY: apiKey,
      PROJECT_ID: projectId,
      KEY_ID: extraKey.api_key?.id ?? extraKey.id,
      TOKEN_ID: tokens.mobile_tokens?.[0]?.id ?? mobile.id,
      ISSUE_ID: issueOf('boom'),
      EVENT_ID: events[0].id,
      TRACE_ID: 'trace-1',
      MONITOR_ID: monitors[0].id,
      CHANNEL_ID: channel.id,
      RULE_ID: rule.id,
      COMMENT_ID: comment.id,
      ORG: 'any-org',
      VERSION: '1.0.0',
      BUNDLE_ID: bundleId,
    })
  }, 90_000)
  afterAll(() => server?.stop())

  it('every example succeeds', () => {
    const markdown = openApiToMarkdown(serverOpenApiDocument())
    const blocks = new Marked()
      .lexer(markdown)
      .filter((t): t is Tokens.Code => t.type === 'code' && t.lang === 'bash')
    const failures: string[] = []
    for (const block of blocks) {
      const text = block.text.includes('/issues/merge')
        ? block.text
            .replace('0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071', env['ISSUE_ID']!)
            .replace('0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6072', mergedAway)
        : block.text
      const result = spawnSync('bash', ['-c', `set -euo pipefail\n${text}`], {
        env: { PATH: process.env['PATH'] ?? '', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      })
      const status = Number(result.stdout.match(/^HTTP\/[\d.]+ (\d{3})/)?.[1] ?? 0)
      const body = result.stdout.split('\r\n\r\n').slice(1).join('\r\n\r\n')
      const ok = status >= 200 && status < 300
      if (!ok && !CONFIG_REFUSALS.some((r) => r.test(body))) {
        failures.push(`${status} ${block.text}\n${body}${result.stderr}`)
      }
    }
    expect(blocks.length).toBeGreaterThan(30)
    expect(failures.join('\n\n')).toBe('')
  }, 120_000)
})
