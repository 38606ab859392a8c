import { fileURLToPath } from 'node:url'
import type { Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import {
  createSentryProject,
  expectSentryAppData,
  runSentryFixture,
  type SentryIds,
} from './sentry-clients'

const APP = fileURLToPath(new URL('../fixtures/sentry-node-app.mjs', import.meta.url))

/** Runs the @sentry/node application against a fresh project's DSN; resolves what it reported. */
async function runSentryApp(harness: Harness) {
  const project = await createSentryProject(harness)
  const ids = await runSentryFixture<SentryIds & { flushed: boolean }>(project, process.execPath, [
    APP,
  ])
  expect(ids.flushed).toBe(true)
  return { ids, read: project.read, project }
}

/** Sentry's Node SDK, unchanged, against a real server: each kind of data read back. */
export function describeSentryNode(h: () => Harness) {
  it('stores an exception, a message, a transaction with its spans and a cron check-in pair', async () => {
    const { ids, read, project } = await runSentryApp(h())
    const { frames } = await expectSentryAppData(project, ids, {
      errorTitle: "TypeError: Cannot read properties of undefined (reading 'id')",
      transaction: 'GET /orders/:id',
      trace: [
        ['GET /orders/:id', 'server', 0],
        ['select * from orders', 'db', 1],
      ],
    })
    expect(frames[0]).toMatchObject({ function: 'loadOrder', lineno: expect.any(Number) })
    expect(frames[0].filename).toMatch(/sentry-node-app\.mjs$/)
    // The check-ins: one monitor, healthy, with the interval of its schedule.
    const { monitors } = await read('/monitors')
    expect(monitors).toEqual([
      expect.objectContaining({
        slug: 'nightly-report',
        environment: 'production',
        status: 'ok',
        expected_interval_seconds: 300,
      }),
    ])
  }, 120_000)
}
