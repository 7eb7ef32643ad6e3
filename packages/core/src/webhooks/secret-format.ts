/**
 * The Standard Webhooks symmetric secret format: `whsec_` + base64 of 24 to 64 random bytes.
 *
 * @module webhooks/secret-format
 */
import { randomBytes } from 'node:crypto'

/** The prefix of every webhook signing secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/** Random bytes in a new secret (the Standard Webhooks spec allows 24 to 64). */
const SECRET_BYTES = 32
const MIN_SECRET_BYTES = 24
const MAX_SECRET_BYTES = 64

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64')
}

/** True for `whsec_` + standard base64 (padded) of 24 to 64 bytes. */
export function isWebhookSecret(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith(WEBHOOK_SECRET_PREFIX)) return false
  const encoded = value.slice(WEBHOOK_SECRET_PREFIX.length)
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false
  const bytes = Buffer.from(encoded, 'base64').length
  return bytes >= MIN_SECRET_BYTES && bytes <= MAX_SECRET_BYTES
}
