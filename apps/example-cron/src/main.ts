import { createClient } from '@tis/sdk'
import { summarizeExports } from './job'

// Run by cron (`0 2 * * * node main.js`) or any scheduler. Each run checks in to the monitor
// `nightly-export-summary`: `ok` with its duration, or `error` — and tis shows the monitor as
// missed when no check-in arrives within the expected interval plus its grace.
const tis = createClient({
  baseUrl: process.env['TIS_URL'] ?? 'http://localhost:3000',
  apiKey: process.env['TIS_API_KEY'] ?? '',
  environment: process.env['TIS_ENVIRONMENT'] ?? 'production',
})

try {
  const summary = await tis.withMonitor(
    'nightly-export-summary',
    () => summarizeExports(process.env['EXPORT_DIR'] ?? './exports'),
    { expectedIntervalSeconds: 24 * 60 * 60 },
  )
  console.log(`summarized ${summary.files} files (${summary.bytes} bytes)`)
} catch (error) {
  // withMonitor has checked in `error` and rethrown; the error itself becomes an issue.
  tis.captureException(error)
  console.error(`failed: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  // A short-lived process must wait for its check-in to be sent.
  await tis.close(5_000)
}
