import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeOtelNode } from './support/otel-node-suite'

// OpenTelemetry's Node SDK (@opentelemetry/sdk-node with its OTLP/HTTP exporters) pointed at
// tis by nothing but OTEL_EXPORTER_OTLP_ENDPOINT and a key header, on each store.
describe('@opentelemetry/sdk-node on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
  })
  afterAll(() => harness?.close())
  describeOtelNode(() => harness)
})

describeWithTestDatabase('@opentelemetry/sdk-node on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())
  describeOtelNode(() => harness)
})
