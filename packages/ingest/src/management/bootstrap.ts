import { generateToken, sha256Hex, TOKEN_PREFIXES, uuidv7 } from '../ids'
import type { UserStore } from '../ports'
import { DEFAULT_ADMIN_EMAIL } from './access'

/** Options of {@link bootstrapAdmin}. */
export interface BootstrapOptions {
  /** `SERVICE_ADMIN_EMAILS`; the first one is the bootstrap administrator. */
  readonly adminEmails: readonly string[]
  /** `SERVICE_BOOTSTRAP_ADMIN_TOKEN`: when set, the administrator's access token is exactly this. */
  readonly bootstrapToken?: string | undefined
  /** @default new Date() */
  readonly now?: Date
}

/** What {@link bootstrapAdmin} did. */
export type BootstrapResult =
  | { readonly action: 'none' }
  /** A bootstrap token was ensured for `email` (created the user when needed). */
  | { readonly action: 'token-ensured'; readonly email: string; readonly created: boolean }
  /** First run: an administrator was created; `token` is shown once. */
  | { readonly action: 'first-run'; readonly email: string; readonly token: string }

/**
 * Makes sure an administrator can sign in. A bootstrap token must start with `tis_user_`. With a bootstrap token, the first admin email (else
 * `admin@localhost`) gets a user whose access token is exactly that value. Without one, on an
 * empty store, an administrator is created with a fresh token, returned once for printing.
 */
export async function bootstrapAdmin(
  store: UserStore,
  options: BootstrapOptions,
): Promise<BootstrapResult> {
  const at = options.now ?? new Date()
  const email = (options.adminEmails[0] ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase()
  if (options.bootstrapToken) {
    if (!options.bootstrapToken.startsWith(TOKEN_PREFIXES.user)) {
      // Access tokens are recognised by their prefix; any other value could never sign in.
      throw new TypeError(`a bootstrap access token must start with ${TOKEN_PREFIXES.user}`)
    }
    const digest = sha256Hex(options.bootstrapToken)
    const existing = await store.findUserByEmail(email)
    if (existing) {
      await store.addUserToken(existing.id, digest, at)
      return { action: 'token-ensured', email, created: false }
    }
    await store.createUser({ id: uuidv7(), email, tokenDigest: digest, createdAt: at })
    return { action: 'token-ensured', email, created: true }
  }
  if (await store.hasUsers()) return { action: 'none' }
  const token = generateToken(TOKEN_PREFIXES.user)
  await store.createUser({ id: uuidv7(), email, tokenDigest: sha256Hex(token), createdAt: at })
  return { action: 'first-run', email, token }
}
