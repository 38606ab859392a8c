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
  const h = hex(16)
  const variant = ((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`
}

/** A W3C trace id: 32 lowercase hex characters. */
export const generateTraceId = (): string => hex(16)

/** A W3C span id: 16 lowercase hex characters. */
export const generateSpanId = (): string => hex(8)
