import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// The bench condition: "ingest throughput with ten rules active stays within 5% of none".
// The rules are made over the management API, as a user would, and notify a webhook that
// answers 200 at once (a local sink, so the server runs with private targets allowed).

/** The ten rules: every trigger, filters that match and filters that do not. */
const RULES = [
  { trigger: 'new_issue' },
  { trigger: 'new_issue', environment: 'production' },
  { trigger: 'new_issue', level: 'error' },
  { trigger: 'regression' },
  { trigger: 'regression', environment: 'staging' },
  { trigger: 'spike', threshold: 1_000, window_seconds: 60 },
  { trigger: 'spike', threshold: 100_000, window_seconds: 3_600 },
  { trigger: 'spike', threshold: 50, window_seconds: 300, level: 'error' },
  { trigger: 'monitor_failed' },
  { trigger: 'monitor_missed' },
] as const

/** A webhook receiver that answers 200 to everything; counts what it got. */
export async function startAlertSink() {
  let received = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received++
      res.writeHead(200, { connection: 'close' }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Makes a webhook channel to `hookUrl` and the ten {@link RULES} on it; resolves how many. */
export async function createAlertRules(
  url: string,
  adminToken: string,
  projectId: string,
  hookUrl: string,
): Promise<number> {
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${url}/api/v1/projects/${projectId}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`)
    return (await r.json()) as Record<string, { id: string }>
  }
  const channel = await post('/alert_channels', { name: 'bench', type: 'webhook', url: hookUrl })
  const channelId = channel['alert_channel']!.id
  for (const [i, rule] of RULES.entries()) {
    await post('/alert_rules', { name: `bench rule ${i + 1}`, channel_ids: [channelId], ...rule })
  }
  return RULES.length
}
