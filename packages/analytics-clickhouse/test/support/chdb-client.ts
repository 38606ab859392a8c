import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  ClickHouseLogLevel,
  createClient,
} from '@clickhouse/client'
import { afterAll, beforeAll, describe, it } from 'vitest'

type CreateChdbConnection = typeof import('chdb/connection').createChdbConnection

// chdb (an in-process ClickHouse engine, devDependency) ships prebuilt libraries for Linux
// (glibc) and macOS on x64 and arm64 only; elsewhere, or when its library did not install, the
// import fails and the suite is skipped with the reason.
async function loadChdb(): Promise<{ create: CreateChdbConnection } | { reason: string }> {
  try {
    const { createChdbConnection } = await import('chdb/connection')
    return { create: createChdbConnection }
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause)
    return { reason: message.split('\n')[0] ?? message }
  }
}

type Connection = NonNullable<ClickHouseClientConfigOptions['connection']>

const SUPPORTED = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64']
const loaded = await loadChdb()

/**
 * A `describe` block whose client runs on chdb, a ClickHouse engine inside this process
 * (`@clickhouse/client` with chdb's connection), over a fresh temp directory removed afterwards.
 * One engine per process: a test file holds one such block; tests use their own databases.
 * Skipped with the reason when chdb does not load; when `CI` is set on a platform chdb supports,
 * fails instead.
 */
export function describeWithChdb(
  name: string,
  suite: (client: () => ClickHouseClient) => void,
): void {
  if ('reason' in loaded) {
    if (process.env['CI'] && SUPPORTED.includes(`${process.platform}-${process.arch}`)) {
      describe(name, () => {
        it('loads chdb (required in CI on this platform)', () => {
          throw new Error(`chdb did not load: ${loaded.reason}`)
        })
      })
      return
    }
    describe.skip(`${name} (skipped: chdb did not load: ${loaded.reason})`, () => {
      it('needs chdb', () => {})
    })
    return
  }
  describe(name, () => {
    let dir: string | undefined
    let client: ClickHouseClient | undefined
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'tis-chdb-'))
      client = createClient({
        // chdb types the connection with its own copy of @clickhouse/client-common (1.23.0),
        // which differs from the client's bundled one only under exactOptionalPropertyTypes.
        connection: loaded.create({ path: dir }) as unknown as Connection,
        log: { level: ClickHouseLogLevel.OFF },
      })
    })
    afterAll(async () => {
      await client?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })
    suite(() => {
      if (!client) throw new Error('the chdb client was not created')
      return client
    })
  })
}
