import * as z from 'zod'
import { type ConfigVariable, integer } from './config-rules'

/** Where request counts live: shared in the database, in this process, or not counted at all. */
export const RATE_LIMIT_STORES = ['database', 'memory', 'none'] as const

/** Rate limits, body and batch size limits, the request timeout. */
export const LIMIT_VARIABLES = {
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: {
    description:
      'Accepted requests per credential per window, separately for ingest_events, check_ins, deployments and mobile_ingest_tokens.',
    default: '1200',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS: {
    description: 'Length of the fixed rate-limit window, in seconds.',
    default: '60',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS: {
    description: 'Authentication failures allowed per client IP per minute before 429.',
    default: '120',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_RATE_LIMIT_STORE: {
    description:
      'Where request counts live: `database` (shared by every instance on the same database, exact across instances), `memory` (this process only: right for a single instance, e.g. PGlite) or `none` (no caps at all; for benchmarks, never in production).',
    default: 'database',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(RATE_LIMIT_STORES, { error: `must be one of ${RATE_LIMIT_STORES.join(', ')}` })),
  },
  SERVICE_MAX_BODY_BYTES: {
    description:
      'Largest request body accepted, in bytes; larger bodies are refused with 413 while they are read.',
    default: '1048576',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_BODY_BYTES: {
    description:
      'Largest body of `POST /api/v1/ingest_events/batch` as sent (compressed or not), in bytes; larger ones get 413. The default takes every batch the Logister clients send (the Python client splits at 2 MiB compressed).',
    default: '2097152',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_DECOMPRESSED_BYTES: {
    description:
      'Largest batch body once decompressed, in bytes: a gzip body inflating past it gets 413 without ever taking more memory (the Python client splits at 8 MiB uncompressed).',
    default: '8388608',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_ENVELOPE_BYTES: {
    description:
      'Largest single envelope (line) of a batch, in bytes; a batch holding a larger one gets 413 naming it.',
    default: '1048576',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_ENVELOPES: {
    description:
      'Most envelopes (lines) in one batch; a batch with more gets 413. Logister’s clients send at most 100; the default lets bulk senders pay one request per 1,000 records.',
    default: '1000',
    schema: integer(1, 10_000),
  },
  SERVICE_REQUEST_TIMEOUT_SECONDS: {
    description:
      'Longest time a client may take to send a whole request (headers and body), in seconds; slower connections are closed (408). Headers alone must arrive within 10 seconds, or this when smaller.',
    default: '30',
    schema: integer(1, 3600),
  },
} as const satisfies Record<string, ConfigVariable>
