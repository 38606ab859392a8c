import { createHash, randomBytes } from 'node:crypto'

/**
 * A UUID version 7: a millisecond timestamp followed by random bits, so new rows land at the end
 * of their primary-key index instead of all over it.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = Buffer.allocUnsafe(16)
  randomPool(10).copy(bytes, 6)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

// One getrandom call per UUID shows up in profiles at thousands of requests a second: draw from a
// pool refilled 4 KiB at a time instead (ids need uniqueness, not secrecy; tokens do not use it).
const POOL_SIZE = 4096
let pool = randomBytes(POOL_SIZE)
let offset = 0

function randomPool(n: number): Buffer {
  if (offset + n > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE)
    offset = 0
  }
  const out = pool.subarray(offset, offset + n)
  offset += n
  return out
}

/**
 * Prefixes of the secrets tis issues; the rest is hex from a CSPRNG (48 characters, 64 for mobile
 * ingest tokens).
 */
export const TOKEN_PREFIXES = { apiKey: 'tis_', user: 'tis_user_', mobile: 'tis_mobile_' } as const

/** A new secret token: `prefix` followed by `bytes` random bytes as hex. */
export function generateToken(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`
}

/** SHA-256 hex digest: how tokens are stored and looked up. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

/**
 * A UUID version 8 derived from `parts` (SHA-256 of their NUL-joined text): the same parts always
 * give the same id. Used for spans identified by (project, trace_id, span_id).
 */
export function uuidFromParts(...parts: readonly string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000'), 'utf8').digest().subarray(0, 16)
  bytes[6] = 0x80 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
