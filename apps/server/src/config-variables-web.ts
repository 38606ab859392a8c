import * as z from 'zod'
import { type ConfigVariable, integer, list, text, url } from './config-rules'

/** `*`, or an origin as browsers send it in `Origin`: a scheme, a host and an optional port. */
const ORIGIN = /^(\*|[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:,]+(:\d{1,5})?)$/i
// Browsers send http(s) origins lowercased and without the default port.
const normalizeOrigin = (origin: string) => {
  if (!/^https?:/i.test(origin)) return origin.toLowerCase()
  try {
    return new URL(origin).origin
  } catch {
    return origin.toLowerCase()
  }
}
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
/** `SERVICE_COOKIE_SECURE`: `auto` follows the public URL's scheme. */
export const COOKIE_SECURE_MODES = ['auto', 'true', 'false'] as const
/** The longest session setting: a year. */
const YEAR_SECONDS = 365 * 24 * 3600

/** Proxies, CORS, the public URL, dashboard cookies and sessions, logging. */
export const WEB_VARIABLES = {
  SERVICE_TRUSTED_PROXIES: {
    description:
      'Comma-separated IP addresses of reverse proxies whose `X-Forwarded-For` is trusted, or `*` for any peer. When the connecting peer is trusted, the first `X-Forwarded-For` hop is the client IP; otherwise the socket address is.',
    default: '',
    schema: list(text, 'IP addresses or *'),
  },
  SERVICE_CORS_ORIGINS: {
    description:
      'Comma-separated origins (`scheme://host[:port]`) whose pages may send telemetry to the ingest and check-in endpoints from a browser, or `*` for any origin. Other origins get no CORS headers, so browsers block their requests.',
    default: '*',
    schema: list(
      z
        .string()
        .regex(ORIGIN, {
          error: 'must be `*` or a comma-separated list of origins (scheme://host[:port])',
        })
        .transform(normalizeOrigin),
      'origins (scheme://host[:port]) or *',
    ),
  },
  SERVICE_PUBLIC_URL: {
    description:
      "The URL people and clients reach tis at, as they see it (behind a reverse proxy: the proxy's), e.g. `https://tis.example.com`. Listed as the server of the OpenAPI document; when it is https, the dashboard's cookies are `Secure` (see SERVICE_COOKIE_SECURE).",
    default: undefined,
    schema: url(['http:', 'https:'], 'an http:// or https:// URL').transform((v) =>
      v.replace(/\/+$/, ''),
    ),
  },
  SERVICE_COOKIE_SECURE: {
    description:
      "Marks the dashboard's cookies `Secure`, so browsers send them over HTTPS only: `auto` when SERVICE_PUBLIC_URL is https, `true` always (set it when a proxy terminates TLS and forwards plain HTTP, unless SERVICE_PUBLIC_URL says https), `false` never (local plain-HTTP use only).",
    default: 'auto',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(
        z.enum(COOKIE_SECURE_MODES, {
          error: `must be one of ${COOKIE_SECURE_MODES.join(', ')}`,
        }),
      ),
  },
  SERVICE_SESSION_IDLE_SECONDS: {
    description:
      'Seconds a dashboard session survives without a request (idle expiry); the default is 7 days, as in Grafana. Lowering it applies to existing sessions at once.',
    default: '604800',
    schema: integer(60, YEAR_SECONDS),
  },
  SERVICE_SESSION_MAX_AGE_SECONDS: {
    description:
      'Seconds a dashboard session lasts however busy it is (absolute expiry), and the lifetime of its cookie; the default is 30 days, as in Grafana. Lowering it applies to existing sessions at once.',
    default: '2592000',
    schema: integer(60, YEAR_SECONDS),
  },
  SERVICE_LOG_LEVEL: {
    description: 'Least severe log level written to stdout: debug, info, warn, error or silent.',
    default: 'info',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  },
} as const satisfies Record<string, ConfigVariable>
