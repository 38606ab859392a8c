function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count)
  const crypto = (globalThis as { crypto?: Crypto }).crypto
  // Node 18 has no global `crypto` without a flag: fall back rather than import `node:crypto`.
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes)
  else for (let i = 0; i < count; i++) bytes[i] = (Math.random() * 256) | 0
  return bytes
}

function hex(count: number): string {
  let out = ''
  for (const byte of randomBytes(count)) out += byte.toString(16).padStart(2, '0')
  return out
}

/** A random RFC 4122 version 4 UUID (the `event_id` of every record the SDK sends). */
export function generateUuid(): string {
  const bytes = randomBytes(31)
  let i = 0
  // Each 0/1 becomes a random hex digit; each 8 one of 8, 9, a, b (the RFC 4122 variant).
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
    (Number(c) ^ (bytes[i++]! & (15 >> (Number(c) / 4)))).toString(16),
  )
}

/** A W3C trace id: 32 lowercase hex characters. */
export const generateTraceId = (): string => hex(16)

/** A W3C span id: 16 lowercase hex characters. */
export const generateSpanId = (): string => hex(8)
