import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestPlan } from './requests'
import { createFuzzRun, type FuzzRun } from './runner'
import { type FuzzServer, startFuzzServer } from './server'

/**
 * Property-based fuzzing of every endpoint: generated and mutated bodies, headers, encodings and
 * query strings against the real server in process, on the run's PostgreSQL (a schema of its own
 * per server; PGlite, with a warning, when the run has no PostgreSQL and `CI` is unset).
 * `FUZZ_RUNS` sets the cases per endpoint (default 3,000 under CI, 500 locally), `FUZZ_SEED`
 * replays a run. See docs/testing.md (run time: why 3,000). The endpoints are split over three
 * test files.
 */
export const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI ? 3_000 : 500))
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED)
export const PARAMETERS: fc.Parameters<[RequestPlan]> = {
  numRuns: RUNS,
  endOnFailure: true,
  ...(SEED === undefined ? {} : { seed: SEED }),
}
// Generous: CI's cases per endpoint run on two shared cores.
export const TIMEOUT = Math.max(60_000, RUNS * 60)

/** Options of {@link describeFuzz}. */
export interface DescribeFuzzOptions {
  /**
   * Prepares the database before the first case (e.g. `seedExtremeRows`), resolving the server
   * the cases run against; the ledger's baseline is read after it.
   */
  readonly seed?: (fuzz: FuzzServer) => Promise<FuzzServer>
}

/** One property per endpoint: no 5xx, documented shapes, nothing stored on a rejection. */
export function describeFuzz(
  title: string,
  plans: [string, fc.Arbitrary<RequestPlan>][],
  options: DescribeFuzzOptions = {},
) {
  describe(title, () => {
    let fuzz: FuzzServer
    let run: FuzzRun
    beforeAll(async () => {
      fuzz = await startFuzzServer()
      if (options.seed) fuzz = await options.seed(fuzz)
      run = await createFuzzRun(fuzz)
    })
    afterAll(async () => {
      if (run?.tally.size)
        console.warn('fuzz: cases hitting known bugs', Object.fromEntries(run.tally))
      if (process.env.FUZZ_STATS)
        console.info(fuzz?.database, Object.fromEntries([...(run?.statuses ?? [])].sort()))
      await fuzz?.close()
    })

    it.each(plans)(
      '%s: no 5xx, documented shapes, nothing stored on a rejection',
      async (_, plan) => {
        await fc.assert(fc.asyncProperty(plan, run.check), PARAMETERS)
        expect(await run.verify()).toEqual([])
      },
      TIMEOUT,
    )
  })
}
