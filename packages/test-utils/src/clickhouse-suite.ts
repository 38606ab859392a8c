import { afterAll, beforeAll, describe, it } from 'vitest'
import {
  CLICKHOUSE_HINT,
  findClickHouseServer,
  startTestClickHouse,
  type TestClickHouse,
} from './clickhouse'

/**
 * A `describe` block with its own throwaway ClickHouse server (started in `beforeAll`, killed in
 * `afterAll`). Without the binary it is skipped with how to run it; when `CI` is set it fails
 * instead, so a green CI run always includes the ClickHouse suites.
 */
export function describeWithClickHouse(
  name: string,
  suite: (server: () => TestClickHouse) => void,
): void {
  const binary = findClickHouseServer()
  if (!binary) {
    if (process.env['CI']) {
      describe(name, () => {
        it('has a ClickHouse server (required in CI)', () => {
          throw new Error(`ClickHouse is required when CI is set: ${CLICKHOUSE_HINT}`)
        })
      })
      return
    }
    describe.skip(`${name} (skipped: clickhouse-server not found; ${CLICKHOUSE_HINT})`, () => {
      it('needs ClickHouse', () => {})
    })
    return
  }
  describe(name, () => {
    let server: TestClickHouse | undefined
    beforeAll(async () => {
      server = await startTestClickHouse(binary)
    }, 40_000)
    afterAll(async () => {
      await server?.destroy()
    }, 40_000)
    suite(() => {
      if (!server) throw new Error('the ClickHouse server did not start')
      return server
    })
  })
}
