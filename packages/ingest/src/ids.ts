import { createHash, randomBytes } from 'node:crypto'

/**
 * A UUID version 7: a millisecond timestamp followed by random bits, so new rows land at the end
 * of their primary-key index instead of all over it.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Prefixes of the secrets tis issues; the rest is 48 hex characters from a CSPRNG. */
export const TOKEN_PREFIXES = { apiKey: 'tis_', user: 'tis_user_' } as const

/** A new secret token: `prefix` followed by 24 random bytes as hex. */
export function generateToken(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('hex')}`
}

/** SHA-256 hex digest: how tokens are stored and looked up. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}
