/**
 * Values sealed with a key derived from a token (AES-256-GCM from node:crypto): the state
 * store keeps what only the holder of that token can open. Used to answer a replayed refresh
 * token, within its grace window, with the very pair it was rotated into, without keeping that
 * pair readable at rest.
 *
 * @module oauth/sealed
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

function keyOf(token: string): Buffer {
  return createHash('sha256').update(`litho-seal:${token}`, 'utf8').digest()
}

/**
 * Seals `value` (JSON) under `token`.
 *
 * @example const sealed = seal(refreshToken, { access_token, refresh_token }) // store `sealed`
 */
export function seal(token: string, value: unknown): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')
}

/**
 * Opens what {@link seal} sealed under `token`; null when it is not such a value or the token differs.
 *
 * @example const pair = unseal(refreshToken, stored) as TokenBody | null
 */
export function unseal(token: string, sealed: unknown): unknown | null {
  if (typeof sealed !== 'string') return null
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), iv)
    decipher.setAuthTag(tag)
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as unknown
  } catch {
    return null
  }
}
