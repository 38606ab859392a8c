import type { Command } from './command'
import { type ApiKeyJson, keyTable, type MobileTokenJson, mobileTokenTable } from './format'
import { id } from './request-parts'

/** `tis keys create|list|revoke`: a project's API keys. */
export const KEY_COMMANDS: readonly Command[] = [
  {
    name: 'keys create',
    args: ['<project_id>'],
    options: '[--name <name>]',
    summary: 'Create a project API key; prints its token once.',
    async run({ client, args, options }) {
      const body = options.name === undefined ? undefined : { api_key: { name: options.name } }
      const json = (await client.request(
        'POST',
        `/api/v1/projects/${id(args[0]!)}/api_keys`,
        body,
      )) as { api_key: ApiKeyJson; token: string }
      const human = () =>
        [
          `Created API key ${json.api_key.name} (${json.api_key.id}).`,
          `Token (shown only now): ${json.token}`,
          '',
          'Send an event with it:',
          `  curl -i -X POST ${client.baseUrl}/api/v1/ingest_events \\`,
          `    -H 'Authorization: Bearer ${json.token}' -H 'Content-Type: application/json' \\`,
          `    -d '{"event":{"event_type":"error","message":"Hello from tis"}}'`,
          '',
        ].join('\n')
      return { json, human }
    },
  },
  {
    name: 'keys list',
    args: ['<project_id>'],
    summary: "List a project's API keys (never their tokens).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/api_keys`)
      return { json, human: () => keyTable((json as { api_keys: ApiKeyJson[] }).api_keys) }
    },
  },
  {
    name: 'keys revoke',
    args: ['<project_id>', '<key_id>'],
    summary: 'Revoke an API key: requests with it get 401 from now on.',
    async run({ client, args }) {
      const json = await client.request(
        'DELETE',
        `/api/v1/projects/${id(args[0]!)}/api_keys/${id(args[1]!)}`,
      )
      return { json, human: () => `Revoked API key ${args[1]}.\n` }
    },
  },
]

/** `tis mobile-tokens list|revoke`: a project's mobile ingest tokens. */
export const MOBILE_TOKEN_COMMANDS: readonly Command[] = [
  {
    name: 'mobile-tokens list',
    args: ['<project_id>'],
    summary: "List a project's live mobile ingest tokens (never their tokens).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/mobile_tokens`)
      const tokens = (json as { mobile_tokens: MobileTokenJson[] }).mobile_tokens
      return { json, human: () => mobileTokenTable(tokens) }
    },
  },
  {
    name: 'mobile-tokens revoke',
    args: ['<project_id>', '<token_id>'],
    summary: 'Revoke a mobile ingest token: requests with it get 401 from now on.',
    async run({ client, args }) {
      const json = await client.request(
        'DELETE',
        `/api/v1/projects/${id(args[0]!)}/mobile_tokens/${id(args[1]!)}`,
      )
      return { json, human: () => `Revoked mobile token ${args[1]}.\n` }
    },
  },
]
