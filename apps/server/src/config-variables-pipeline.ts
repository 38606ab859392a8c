import * as z from 'zod'
import { boolean, type ConfigVariable, identifier, integer, text, url } from './config-rules'

/** The ClickHouse analytics drain and the projection of the ingest log. */
export const PIPELINE_VARIABLES = {
  SERVICE_ANALYTICS_ENABLED: {
    description:
      'Enables the optional analytics store (ClickHouse): events, spans and release health accepted from then on are exported in the background, following the ingest log behind the projection. No backfill of older data. Turning it off for good: docs/analytics.md.',
    default: 'false',
    schema: boolean,
  },
  SERVICE_ANALYTICS_URL: {
    description:
      'HTTP(S) URL of the analytics store, e.g. http://localhost:8123. Required when SERVICE_ANALYTICS_ENABLED is true.',
    default: undefined,
    secret: true,
    schema: url(['http:', 'https:'], 'an http:// or https:// URL'),
  },
  SERVICE_ANALYTICS_DATABASE: {
    description: 'Database of the analytics store (created by the migration when missing).',
    default: 'tis',
    schema: identifier,
  },
  SERVICE_ANALYTICS_EVENTS_TABLE: {
    description: 'Raw events table of the analytics store.',
    default: 'events_raw',
    schema: identifier,
  },
  SERVICE_ANALYTICS_SPANS_TABLE: {
    description: 'Raw spans table of the analytics store.',
    default: 'spans_raw',
    schema: identifier,
  },
  SERVICE_ANALYTICS_SESSIONS_TABLE: {
    description:
      'Release health table of the analytics store: sessions per project, release, environment and minute, as the primary database counts them (a ReplacingMergeTree; read it with FINAL). docs/analytics.md.',
    default: 'session_minutes',
    schema: identifier,
  },
  SERVICE_ANALYTICS_USERNAME: {
    description: 'User name for the analytics store.',
    default: 'default',
    schema: text,
  },
  SERVICE_ANALYTICS_PASSWORD: {
    description: 'Password for the analytics store.',
    default: '',
    secret: true,
    schema: z.string(),
  },
  SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS: {
    description:
      'At most one log line per failure kind per this many seconds about failing analytics exports (the failure counter counts them all).',
    default: '60',
    schema: integer(1),
  },
  SERVICE_ANALYTICS_DRAIN: {
    description:
      'Export to the analytics store from the server process. Set false when separate `tis worker` processes do it (several may run: one exports at a time, the others take over).',
    default: 'true',
    schema: boolean,
  },
  SERVICE_PROJECTION: {
    description:
      'Where accepted records are projected into issues, events, spans, monitors and the analytics feed: `server` projects in this process (the default, embedded database included); `worker` leaves it to `tis worker` processes (PostgreSQL only; several may run, one projects at a time). docs/scaling.md.',
    default: 'server',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['server', 'worker'], { error: 'must be one of server, worker' })),
  },
  SERVICE_PROJECTION_THREAD: {
    description:
      'With `SERVICE_PROJECTION=server` on PostgreSQL: project in a worker thread of the server, over two connections of its own, so that projecting never holds up the event loop that answers requests (reads still wait for it and wake with it). `false` projects on the request thread. The embedded database always does: its one connection lives there.',
    default: 'true',
    schema: boolean,
  },
  SERVICE_PROJECTION_BATCH_SIZE: {
    description:
      'Most accepted records projected in one transaction. Larger is cheaper per record; on the embedded database requests wait behind a running round, so it uses at most 250 there.',
    default: '1000',
    schema: integer(1, 100_000),
  },
  SERVICE_READ_BARRIER_MS: {
    description:
      'Longest a read (read API, dashboard, CLI) waits for the projection to pass everything acknowledged before it began, in ms; past it the read answers with what is projected and the `X-Tis-Projection-Lag` header. 0 never waits.',
    default: '2000',
    schema: integer(0, 60_000),
  },
  SERVICE_PROJECTION_MAX_LAG_SECONDS: {
    description:
      'Projection lag (age of the oldest acknowledged record not yet projected) above which `GET /health/ready` says `lagging` and the dashboard warns.',
    default: '60',
    schema: integer(1),
  },
} as const satisfies Record<string, ConfigVariable>
