// Runs on the oldest supported Node (18) as a plain script: exit code 0 means every check passed.
// Bundled with esbuild by test/node-runtime.test.ts; no test framework, no dependencies.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '../../src/index'

type Seen = { path: string; body: Record<string, Record<string, unknown>>; auth: string }
const seen: Seen[] = []
const answers: number[] = []

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = ''
    req.on('data', (chunk) => {
      data += chunk
    })
    req.on('end', () => resolve(data))
  })
}

function check(condition: unknown, message: string) {
  if (!condition) {
    console.error(`FAIL: ${message}`)
    process.exit(1)
  }
}

async function main() {
  const server = createServer(async (req, res) => {
    // A batch (NDJSON) is recorded line by line, each line taking the next answer.
    const path = (req.url ?? '').replace(/\/batch$/, '')
    const lines = (await read(req)).split('\n').filter(Boolean)
    const statuses = lines.map((line) => {
      seen.push({ path, body: JSON.parse(line), auth: String(req.headers.authorization) })
      return answers.shift() ?? 201
    })
    const whole = statuses.find((s) => s === 429 || s >= 500)
    const status = req.url?.endsWith('/batch') ? (whole ?? 200) : statuses[0]!
    res.writeHead(status, status === 429 ? { 'Retry-After': '1' } : {})
    res.end(
      JSON.stringify(
        status === 200
          ? { results: statuses.map((s, index) => ({ index, status: s })) }
          : status < 300
            ? { id: 'x', status: 'accepted' }
            : { error: 'e' },
      ),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const client = createClient({
    baseUrl,
    apiKey: 'tis_smoke',
    environment: 'smoke',
    transportOptions: { backoffMs: 50 },
  })

  const cyclic: Record<string, unknown> = { n: 1n }
  cyclic['self'] = cyclic
  const ids = [
    client.captureException(new AggregateError([new Error('inner')], 'outer')),
    client.captureMessage('hello', { level: 'warn', context: { cyclic } }),
    client.captureMetric('db.query', 3, { unit: 'ms' }),
    client.captureTransaction('GET /', 12),
    client.captureSpan('render', 4, { kind: 'render' }),
    client.checkIn('nightly', 'ok'),
    client.recordDeployment({ release: '1', repository: 'o/r', commitSha: 'abcdef1' }),
  ]
  await client.withMonitor('job', async () => 1)
  const first = await client.flush(5000)
  check(first.sent === 8 && first.pending === 0, `first flush ${JSON.stringify(first)}`)
  check(new Set(ids).size === 7 && ids.every((id) => /^[0-9a-f-]{36}$/.test(id)), 'ids')
  const paths = seen.map((s) => s.path)
  check(paths.filter((p) => p === '/api/v1/ingest_events').length === 5, 'ingest paths')
  check(paths.filter((p) => p === '/api/v1/check_ins').length === 2, 'check-in paths')
  check(paths.includes('/api/v1/deployments'), 'deployment path')
  check(
    seen.every((s) => s.auth === 'Bearer tis_smoke'),
    'auth header',
  )
  const error = seen.find((s) => s.body['event']?.['event_type'] === 'error')!
  const exception = (error.body['event']!['context'] as Record<string, Record<string, unknown>>)[
    'exception'
  ]!
  check(exception['class'] === 'AggregateError', 'exception class')
  check((exception['errors'] as unknown[]).length === 1, 'aggregate members')
  check(
    Array.isArray(exception['frames']) && (exception['frames'] as unknown[]).length > 0,
    'frames',
  )
  const log = seen.find((s) => s.body['event']?.['event_type'] === 'log')!
  const ctx = log.body['event']!['context'] as Record<string, Record<string, unknown>>
  check(
    ctx['cyclic']!['self'] === '[Circular]' && ctx['cyclic']!['n'] === '1',
    'safe serialisation',
  )

  seen.length = 0
  answers.push(500, 201, 429, 201, 401)
  client.captureMessage('retried')
  const retried = await client.flush(5000)
  check(retried.sent === 1 && seen.length === 2, `500 then 201 ${JSON.stringify(retried)}`)
  client.captureMessage('rate limited')
  const limited = await client.flush(5000)
  check(limited.sent === 1 && seen.length === 4, `429 then 201 ${JSON.stringify(limited)}`)
  client.captureMessage('unauthorised')
  const rejected = await client.flush(5000)
  check(rejected.dropped.rejected === 1 && seen.length === 5, `401 ${JSON.stringify(rejected)}`)

  await client.close()
  server.closeAllConnections()
  server.close()
  console.log(`ok ${process.version}`)
}

main().catch((error) => {
  console.error('FAIL', error)
  process.exit(1)
})
