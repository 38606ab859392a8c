import * as z from 'zod'
import { type ConfigVariable, url } from './config-rules'

/** The secret key of stored credentials and the GitHub source excerpts. */
export const SOURCE_VARIABLES = {
  SERVICE_SECRET_KEY: {
    description:
      "Secret (at least 32 characters, e.g. `openssl rand -base64 48`) that encrypts secrets stored in the database — projects' GitHub tokens — with AES-256-GCM. Required to set a project's `github_token`; changing it makes stored tokens unreadable (set them again).",
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 48`)' }),
  },
  SERVICE_GITHUB_TOKEN: {
    description:
      'GitHub token used for source excerpts of projects without a token of their own (a fine-grained token with Contents: read on the repositories). Only ever sent to SERVICE_GITHUB_API_URL.',
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .regex(/^\S{1,1024}$/, { error: 'must be a token without spaces' }),
  },
  SERVICE_GITHUB_API_URL: {
    description:
      'GitHub API base URL for source excerpts; for GitHub Enterprise Server `https://HOST/api/v3`. Projects may set their own with their own token.',
    default: 'https://api.github.com',
    schema: url(['http:', 'https:'], 'an http:// or https:// URL').transform((v) =>
      v.replace(/\/+$/, ''),
    ),
  },
} as const satisfies Record<string, ConfigVariable>
