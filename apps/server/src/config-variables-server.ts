import { EMBEDDED_SHARED_BUFFERS, PGLITE_SIZE, PGLITE_SYNC_MODES } from '@tis/storage-postgres'
import * as z from 'zod'
import { boolean, type ConfigVariable, integer, list, text, url } from './config-rules'

const EMAIL = /^[^\s@,]+@[^\s@,]+$/

/** The listener, the database, the environment name and the administrators. */
export const SERVER_VARIABLES = {
  PORT: {
    description: 'TCP port the HTTP server listens on; 0 picks a free port.',
    default: '3000',
    schema: integer(0, 65_535),
  },
  HOST: {
    description: 'Address the HTTP server binds to.',
    default: '0.0.0.0',
    schema: text,
  },
  DATABASE_URL: {
    description:
      'PostgreSQL connection URL (postgres://user:password@host:5432/db). When unset, tis stores its data in an embedded PGlite database in SERVICE_DATA_DIR.',
    default: undefined,
    secret: true,
    schema: url(['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL'),
  },
  SERVICE_DATA_DIR: {
    description:
      'Directory of the embedded PGlite database (used when DATABASE_URL is unset), relative to the working directory. `:memory:` keeps the data in memory only.',
    default: '.tis/data',
    schema: text,
  },
  SERVICE_EMBEDDED_SYNC: {
    description:
      'Embedded database only: `commit` flushes each commit to the disk (fsync) before tis answers, so acknowledged events survive an OS crash or power loss; `off` never flushes and only survives a killed server (docs/self-hosting.md, Durability).',
    default: 'commit',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(PGLITE_SYNC_MODES, { error: `must be one of ${PGLITE_SYNC_MODES.join(', ')}` })),
  },
  SERVICE_EMBEDDED_SHARED_BUFFERS: {
    description:
      "Embedded database only: PostgreSQL's shared_buffers inside PGlite (kB, MB or GB). Held as process memory for the server's life; the operating system's file cache serves what it does not hold (docs/performance.md, Pace).",
    default: EMBEDDED_SHARED_BUFFERS,
    schema: z
      .string()
      .trim()
      .regex(PGLITE_SIZE, { error: 'must be a size such as 16MB (kB, MB or GB)' }),
  },
  SERVICE_TEXT_SEARCH_INDEX: {
    description:
      "Keep the trigram index behind `q` text search on event messages (where pg_trgm is installed). `false` drops it when the database is migrated: each projected event then costs PostgreSQL less, and search scans a project's events newest first (docs/performance.md, Text search without its index). `true` creates it again, blocking writes to events while it is built.",
    default: 'true',
    schema: boolean,
  },
  SERVICE_ENV: {
    description: "The service's own environment: the default `environment` of check-ins.",
    default: 'production',
    schema: text,
  },
  SERVICE_ADMIN_EMAILS: {
    description:
      'Comma-separated emails of the application administrators. The first one is the administrator created on first run; when empty, `admin@localhost` is.',
    default: '',
    schema: list(
      z.string().regex(EMAIL, { error: 'must be a comma-separated list of email addresses' }),
      'email addresses',
    ),
  },
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: {
    description:
      'When set, the first administrator signs in with exactly this access token (created at start if needed), instead of a random token printed on first run. Must start with `tis_user_` followed by at least 16 characters.',
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .regex(/^tis_user_\S{16,503}$/, {
        error: 'must be `tis_user_` followed by 16 to 503 non-space characters',
      }),
  },
} as const satisfies Record<string, ConfigVariable>
