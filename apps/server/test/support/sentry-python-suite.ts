import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Harness } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'
import {
  createSentryProject,
  expectSentryAppData,
  runSentryFixture,
  type SentryIds,
} from './sentry-clients'

const APP = fileURLToPath(new URL('../fixtures/sentry-python-app.py', import.meta.url))
const APP_LINES = readFileSync(APP, 'utf8').split('\n')

/**
 * Debian's interpreter: `python3-sentry-sdk` installs for it, not for a pyenv or venv `python3`
 * that may come first on PATH.
 */
export const SYSTEM_PYTHON = '/usr/bin/python3'

const HINT = 'apt-get install python3-sentry-sdk (or run .ci/run)'

/** Why Sentry's Python SDK cannot run here, or `null` when `import sentry_sdk` works. */
function sentryPythonMissing(): string | null {
  const probe = spawnSync(SYSTEM_PYTHON, ['-c', 'import sentry_sdk'], { encoding: 'utf8' })
  if (probe.status === 0) return null
  return `${SYSTEM_PYTHON} cannot import sentry_sdk (${probe.error?.message ?? probe.stderr.trim().split('\n').at(-1)})`
}

/**
 * `describe` for suites that run Sentry's Python SDK: skipped locally when it is missing (the title
 * says how to install it), and under `CI` replaced by a failing test, since CI installs it from
 * .ci/apt-packages and must never skip these tests.
 */
export function describeWithSentryPython(title: string, body: () => void): void {
  const missing = sentryPythonMissing()
  if (missing === null) {
    describe(title, body)
  } else if (process.env['CI']) {
    describe(title, () => {
      it('has the sentry_sdk Python package (required in CI)', () => {
        throw new Error(`${missing}; .ci/run installs it from .ci/apt-packages`)
      })
    })
  } else {
    describe.skip(`${title} (skipped: ${missing}; ${HINT})`, body)
  }
}

/** Sentry's Python SDK 1.9 (`store` for errors, envelopes for transactions) against a real server. */
export function describeSentryPython(h: () => Harness) {
  it('stores an exception, a message and a transaction with its span', async () => {
    const project = await createSentryProject(h())
    const ids = await runSentryFixture<SentryIds>(project, SYSTEM_PYTHON, [APP])
    const { event, frames } = await expectSentryAppData(project, ids, {
      errorTitle: "TypeError: 'NoneType' object is not subscriptable",
      transaction: 'GET /orders/:id',
      trace: [
        ['GET /orders/:id', 'server', 0],
        ['select * from orders', 'db', 1],
      ],
    })
    expect(event.context.sdk).toMatchObject({ name: 'sentry.python', version: '1.9.10' })
    const line = APP_LINES.indexOf('    return order["id"]') + 1
    expect(frames[0]).toMatchObject({ function: 'load_order', lineno: line })
    expect(frames[0].filename).toMatch(/sentry-python-app\.py$/)
    expect(frames[1]).toMatchObject({ function: '<module>' })
    // As sent: the module, in_app and the line's source, which Python's SDK reads from the file.
    expect(event.context.exception.frames[0]).toMatchObject({
      function: 'load_order',
      module: '__main__',
      in_app: true,
      context_line: '    return order["id"]',
    })
  }, 60_000)
}
