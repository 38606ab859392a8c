import type { RotatedToken, SessionList } from '@tis/schema'
import type { Command } from './command'
import { table } from './format'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * `tis users create` (administrators), then your own account: `users sessions`,
 * `users sign-out-everywhere` and `users rotate-token`.
 */
export const ACCOUNT_COMMANDS: readonly Command[] = [
  {
    name: 'users create',
    args: ['<email>'],
    summary: 'Create a user (administrators only); prints its access token once.',
    async run({ client, args }) {
      const json = (await client.request('POST', '/api/v1/users', {
        user: { email: args[0] },
      })) as {
        user: { id: string; email: string; admin: boolean }
        access_token: string
      }
      return {
        json,
        human: () =>
          `Created user ${json.user.email} (${json.user.id})${json.user.admin ? ', administrator' : ''}.\nAccess token (shown only now): ${json.access_token}\n`,
      }
    },
  },
  {
    name: 'users sessions',
    args: [],
    summary: 'List your signed-in dashboard sessions (never their ids).',
    async run({ client }) {
      const json = (await client.request('GET', '/api/v1/users/me/sessions')) as SessionList
      const human = () =>
        table(
          ['ID', 'SIGNED IN', 'LAST SEEN', 'ENDS', 'ADDRESS', 'BROWSER'],
          json.sessions.map((s) => [
            s.id,
            s.created_at,
            s.last_seen_at,
            s.expires_at,
            s.ip ?? '-',
            s.user_agent ?? '-',
          ]),
        )
      return { json, human }
    },
  },
  {
    name: 'users sign-out-everywhere',
    args: [],
    summary: 'End every dashboard session of your account (your access token keeps working).',
    async run({ client }) {
      const json = (await client.request('DELETE', '/api/v1/users/me/sessions')) as {
        sessions_ended: number
      }
      return {
        json,
        human: () => `Signed out everywhere: ended ${plural(json.sessions_ended, 'session')}.\n`,
      }
    },
  },
  {
    name: 'users rotate-token',
    args: [],
    summary:
      'Replace your access token: prints the new one once; the old one and every dashboard session end at once.',
    async run({ client }) {
      const json = (await client.request('POST', '/api/v1/users/me/token')) as RotatedToken
      const human = () =>
        [
          `Replaced the access token of ${json.user.email}; the old one no longer works.`,
          `Ended ${plural(json.sessions_ended, 'dashboard session')}.`,
          `New access token (shown only now): ${json.access_token}`,
          `Use it from now on: export TIS_TOKEN=${json.access_token}`,
          '',
        ].join('\n')
      return { json, human }
    },
  },
]
