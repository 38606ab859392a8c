import { type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeApi } from './support/api-suite'

// The whole HTTP interface against a real listening server on PGlite (in memory).
describe('server on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
  })
  afterAll(() => harness?.close())
  describeApi(() => harness)
})
