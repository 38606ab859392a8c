import { boolean, type ConfigVariable, integer, text } from './config-rules'

/**
 * Alerts: where channels may point, the lease of a claimed delivery, and the SMTP server
 * of email channels.
 */
export const ALERT_VARIABLES = {
  SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: {
    description:
      'Allow webhook and Slack channels whose URL is on loopback, link-local or private addresses (or a name resolving to one). Off by default, so a project owner cannot aim the server at its own network; turn it on for receivers on the same private network.',
    default: 'false',
    schema: boolean,
  },
  SERVICE_ALERTS_WORKER: {
    description:
      'Run the alerts worker in this server process: it sends pending alert deliveries and turns passed monitor deadlines into `missed` (every second). Several processes may run it at once (each delivery is claimed by one); at least one must, or nothing is sent. `tis worker` processes never run it.',
    default: 'true',
    schema: boolean,
  },
  SERVICE_ALERTS_LEASE_SECONDS: {
    description:
      'How long a claimed alert delivery stays reserved for the process sending it. A process killed mid-delivery leaves its deliveries to be sent again (same delivery id) once the lease expires. At least 15, above the 10 s send timeout, so an attempt in flight is never claimed twice.',
    default: '60',
    schema: integer(15, 3_600),
  },
  SERVICE_SMTP_HOST: {
    description:
      'SMTP server that email channels send through. Unset: email channels cannot be created (422 naming this variable).',
    default: undefined,
    schema: text,
  },
  SERVICE_SMTP_PORT: {
    description: 'Port of SERVICE_SMTP_HOST.',
    default: '587',
    schema: integer(1, 65_535),
  },
  SERVICE_SMTP_SECURE: {
    description:
      'Connect with implicit TLS (SMTPS). Unset: true when SERVICE_SMTP_PORT is 465, else false (STARTTLS is used when the server offers it).',
    default: undefined,
    schema: boolean,
  },
  SERVICE_SMTP_USER: {
    description: 'User name for SMTP authentication; unset: no authentication.',
    default: undefined,
    schema: text,
  },
  SERVICE_SMTP_PASSWORD: {
    description: 'Password for SMTP authentication.',
    default: undefined,
    secret: true,
    schema: text,
  },
  SERVICE_SMTP_FROM: {
    description:
      'Sender of alert emails, e.g. `tis <alerts@example.com>`. Required when SERVICE_SMTP_HOST is set.',
    default: undefined,
    schema: text,
  },
} as const satisfies Record<string, ConfigVariable>
