import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/** Seals secrets for storage: AES-256-GCM with a key derived from the server's secret key. */
export interface SecretBox {
  /** Encrypts `plaintext`, bound to `context` (e.g. a project id): `v1.<iv>.<tag>.<ciphertext>`. */
  seal(plaintext: string, context: string): string
  /**
   * Decrypts a sealed value with the same `context`; `null` when it was sealed with another key
   * or context, or is malformed.
   */
  open(sealed: string, context: string): string | null
}

const b64 = (b: Buffer) => b.toString('base64url')

/**
 * A {@link SecretBox} keyed by `secret` (`SERVICE_SECRET_KEY`). The 256-bit key is derived with
 * HKDF-SHA-256, so any long random string works as the secret; each value gets a fresh 96-bit
 * IV, and `context` is authenticated data: a value copied to another project's row does not open.
 */
export function createSecretBox(secret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'tis', 'tis secret box v1', 32))
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `v1.${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(data)}`
    },
    open(sealed, context) {
      const [version, iv, tag, data] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || data === undefined) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        const plain = Buffer.concat([
          decipher.update(Buffer.from(data, 'base64url')),
          decipher.final(),
        ])
        return plain.toString('utf8')
      } catch {
        return null
      }
    },
  }
}
