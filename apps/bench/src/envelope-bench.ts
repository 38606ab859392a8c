// `pnpm --filter @tis/bench bench:envelope`: only the comparison of a Sentry envelope with one
// error event against the native single event (envelope-comparison.ts), for quick iteration;
// `pnpm bench` runs it within the ingest bench. BENCH_DURATION and BENCH_ENVELOPE_ROUNDS shorten it.
import { measureEnvelope } from './envelope-comparison'
import { CONNECTIONS, DURATION } from './ingest-load'
import type { IngestReport } from './ingest-report'

const report: IngestReport = { rows: [], notes: [], summary: [] }
const { comparison } = await measureEnvelope(report)
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s per run, load generator on the same machine\n`,
)
console.table(report.rows)
for (const line of [...report.notes, ...report.summary]) console.log(line)
if (report.notes.some((n) => !/: 0 acknowledged/.test(n)) || comparison.native.length === 0) {
  process.exitCode = 1
}
