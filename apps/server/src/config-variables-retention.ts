import { type ConfigVariable, integer } from './config-rules'

/** Retention: how long telemetry is kept, here and in the analytics store. */
export const RETENTION_VARIABLES = {
  SERVICE_RETENTION_DAYS: {
    description:
      "Days events, spans and check-ins are kept (by their occurred_at, started_at and check-in time); older ones, with their idempotency keys, are deleted by a background pass (docs/self-hosting.md, Retention). A project's own period (`PUT /api/v1/projects/:id/retention`, `tis retention set`) wins. 0 keeps everything forever. Issues keep their totals and first/last seen; monitors and deployments are kept.",
    default: '90',
    schema: integer(0, 36_500),
  },
  SERVICE_RETENTION_INTERVAL_SECONDS: {
    description:
      'Seconds between two retention passes of each server process (the first a minute after start). Passes of several instances may overlap harmlessly: each row is deleted once. `tis prune` runs one now.',
    default: '3600',
    schema: integer(10, 86_400),
  },
  SERVICE_RETENTION_BATCH_SIZE: {
    description:
      'Rows one retention transaction deletes at most: smaller batches hold locks shorter and disturb ingest less.',
    default: '2000',
    schema: integer(100, 100_000),
  },
  SERVICE_ANALYTICS_RETENTION_DAYS: {
    description:
      "Days the analytics store's raw tables keep rows. Unset: the same as SERVICE_RETENTION_DAYS. 0 keeps them forever.",
    default: undefined,
    schema: integer(0, 36_500),
  },
  SERVICE_ANALYTICS_ROLLUP_RETENTION_DAYS: {
    description:
      "Days the analytics store's rollup tables and session minutes keep rows (they are small; they may outlive the raw rows). 0 keeps them forever.",
    default: '400',
    schema: integer(0, 36_500),
  },
} as const satisfies Record<string, ConfigVariable>
