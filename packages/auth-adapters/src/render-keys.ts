/**
 * Render keys: the credentials of the render endpoints (docs/authentication.md). A key is a random
 * secret shown once; only its hash is stored, and the list shows a prefix, never the secret.
 *
 * @module render-keys
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Every render key starts with this, so leaked keys are easy to recognise and scan for. */
export const RENDER_KEY_PREFIX = 'lk_'

// 24 random bytes = 192 bits (the contract asks for at least 128), 32 base64url characters.
const SECRET_BYTES = 24
const FORMAT = /^lk_[A-Za-z0-9_-]{32}$/
const HASH_FORMAT = /^sha256:[A-Za-z0-9_-]{43}$/

/** A newly created key. `secret` is shown to its owner once and never stored. */
export interface NewRenderKey {
  /** Public identifier of the key record, e.g. `key_3Jx9Qm2LpZ7a`. */
  id: string
  /** The secret, e.g. `lk_4fT…`: what clients send in `dma-api-key`. */
  secret: string
  /** What is stored: `sha256:<base64url>` of the secret. */
  hash: string
  /** What lists may show: the first characters of the secret, e.g. `lk_4fT9w…`. */
  displayPrefix: string
}

/**
 * Creates a render key from the operating system's CSPRNG.
 *
 * @example
 * const key = createRenderKey()
 * await keyStore.create({ id: key.id, userId, name, hash: key.hash, prefix: key.displayPrefix })
 * console.log(key.secret) // shown once
 */
export function createRenderKey(): NewRenderKey {
  const secret = `${RENDER_KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`
  return { id: `key_${randomBytes(9).toString('base64url')}`, secret, hash: hashRenderKey(secret), displayPrefix: displayPrefix(secret) }
}

/** True when `value` has the shape of a render key (checked before any lookup). */
export function isRenderKey(value: unknown): value is string {
  return typeof value === 'string' && FORMAT.test(value)
}

/**
 * The stored form of a key: SHA-256, which is right for high-entropy random secrets (a slow
 * password hash adds nothing against a 192-bit search and would slow every render). Stores
 * index keys by this hash, so finding a key never compares secrets.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` when `secret` is not a render key.
 */
export function hashRenderKey(secret: string): string {
  if (!isRenderKey(secret)) throw Object.assign(new TypeError('Expected a render key ("lk_" and 32 characters)'), { code: 'ERR_INVALID_ARG_VALUE' })
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`
}

/**
 * True when `secret` matches the stored `hash`, compared in constant time. Use it after a
 * lookup by hash, or when a store keeps hashes by key id.
 */
export function verifyRenderKey(secret: unknown, hash: string): boolean {
  if (!isRenderKey(secret) || !HASH_FORMAT.test(hash)) return false
  const expected = Buffer.from(hash.slice(7), 'base64url')
  const actual = createHash('sha256').update(secret, 'utf8').digest()
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** The part of a secret that lists may show: the prefix and 6 characters. */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, RENDER_KEY_PREFIX.length + 6)}…`
}
