import type { BootstrapResult } from '@tis/ingest'

/** Options of {@link startupMessage}. */
export interface StartupMessageOptions {
  /** Where the server listens, e.g. `http://localhost:3000`. */
  readonly url: string
  /**
   * How to run the `tis` CLI from the user's shell.
   * @default 'pnpm tis'
   */
  readonly cli?: string
}

const DEFAULT_URL = 'http://localhost:3000'

/**
 * What to tell a person at start, or `null` when there is nothing to say. On first run: the
 * administrator's email and access token (shown only this once) and copy-paste commands that
 * create a project and an API key and send a first event.
 */
export function startupMessage(
  bootstrap: BootstrapResult,
  options: StartupMessageOptions,
): string | null {
  switch (bootstrap.action) {
    case 'none':
      return null
    case 'token-ensured':
      return `Administrator ${bootstrap.email} signs in with SERVICE_BOOTSTRAP_ADMIN_TOKEN${bootstrap.created ? ' (user created)' : ''}.\n`
    case 'first-run':
      return firstRunMessage(bootstrap.email, bootstrap.token, options)
  }
}

function firstRunMessage(email: string, token: string, options: StartupMessageOptions): string {
  const cli = options.cli ?? 'pnpm tis'
  const env = `TIS_TOKEN=${token}${options.url === DEFAULT_URL ? '' : ` TIS_URL=${options.url}`}`
  return [
    '',
    'tis is running. First run: created the administrator account.',
    '',
    `  email:         ${email}`,
    `  access token:  ${token}`,
    '',
    'The access token is shown only now; keep it somewhere safe. Next steps:',
    '',
    '  1. Create a project (note the id it prints):',
    `     ${env} ${cli} projects create my-app --kind node`,
    '',
    '  2. Create an API key for it (note the token it prints):',
    `     ${env} ${cli} keys create <project-id>`,
    '',
    '  3. Send a first event:',
    `     curl -i -X POST ${options.url}/api/v1/ingest_events \\`,
    "       -H 'Authorization: Bearer <api-key-token>' -H 'Content-Type: application/json' \\",
    `       -d '{"event":{"event_type":"error","message":"Hello from tis"}}'`,
    '',
    `Run \`${cli} help\` for every command. API reference: ${options.url}/api/v1/openapi.json`,
    `Documentation: ${options.url}/docs/ (start with Getting started)`,
    '',
    '',
  ].join('\n')
}
