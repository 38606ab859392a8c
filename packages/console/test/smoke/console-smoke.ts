// Runs on the oldest supported Node (18) as a plain script: exit code 0 means every check passed.
// Bundled with esbuild by test/node-runtime.test.ts; no test framework. (Moved here from
// @tis/sdk's smoke script in issue 20: a package's tests reach other packages by name only.)
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@tis/sdk'
import { instrumentConsole } from '../../src/index'

const seen: Record<string, Record<string, unknown>>[] = []

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
    // A batch (NDJSON) is recorded line by line.
    const lines = (await read(req)).split('\n').filter(Boolean)
    for (const line of lines) seen.push(JSON.parse(line))
    const batch = req.url?.endsWith('/batch') ?? false
    res.writeHead(batch ? 200 : 201)
    res.end(
      JSON.stringify(
        batch
          ? { results: lines.map((_, index) => ({ index, status: 201 })) }
          : { id: 'x', status: 'accepted' },
      ),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const client = createClient({ baseUrl, apiKey: 'tis_smoke', environment: 'smoke' })

  const printed: unknown[][] = []
  const fakeConsole = { log: (...args: unknown[]) => printed.push(args) } as unknown as Console
  const uninstall = instrumentConsole(client, { console: fakeConsole, levels: ['log'] })
  fakeConsole.log('%s users', 3)
  uninstall()
  fakeConsole.log('after uninstall')
  await client.flush(5000)
  check(printed.length === 2 && seen.length === 1, 'console instrumentation')
  check(seen[0]!['event']!['message'] === '3 users', 'console formatting')

  await client.close()
  server.closeAllConnections()
  server.close()
  console.log(`ok ${process.version}`)
}

main().catch((error) => {
  console.error('FAIL', error)
  process.exit(1)
})
