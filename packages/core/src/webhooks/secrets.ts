/**
 * One webhook signing secret per user, kept in the auth state store (the same store as the
 * OAuth server's keys: it is security-critical state and needs the atomic `add`/`swap`).
 *
 * @module webhooks/secrets
 */
import type { AuthStateStore } from '../contracts/auth-state-store.js'
import { LithoError } from '../errors.js'
import { describeReceived, invalidArgument } from '../_internal/argument-error.js'
import { generateWebhookSecret, isWebhookSecret } from './secret-format.js'

/** The stored value under `whsec.<userId>`. */
interface StoredSecret {
  secret: string
  /** When this secret was created (ISO 8601): first use or the last rotation. */
  createdAt: string
}

/** The webhook secrets of all users. */
export interface WebhookSecrets {
  /**
   * The user's secret (`whsec_…`), created on first use. Creation is an atomic `add`, so two
   * instances (or two concurrent calls) that both find no secret agree on one: the loser of the
   * race reads and returns the winner's.
   */
  get(userId: string): Promise<string>
  /**
   * Replaces the user's secret with a new one and returns it. The old secret stops being used
   * at once: every delivery signed after this call uses the new one, and there is no overlap
   * period in which both are sent. Receivers must switch to the new secret when they rotate
   * (a delivery already in flight, or a retry scheduled with the old signature, is re-signed with
   * the new secret on its next attempt). Concurrent rotations: the last one written wins; `get`
   * returns the secret in force.
   */
  rotate(userId: string): Promise<string>
}

/** The store key of a user's secret. */
export function webhookSecretKey(userId: string): string {
  return `whsec.${userId}`
}

/**
 * Webhook secrets over an {@link AuthStateStore}, under `whsec.<userId>` with no expiry.
 *
 * @example
 * const secrets = createWebhookSecrets(authState)
 * const secret = await secrets.get(user.id) // whsec_…
 */
export function createWebhookSecrets(state: AuthStateStore): WebhookSecrets {
  if (typeof state !== 'object' || state === null || typeof state.get !== 'function' || typeof state.add !== 'function' || typeof state.swap !== 'function') {
    throw invalidArgument(`Expected state to be an AuthStateStore but received ${describeReceived(state)}`)
  }

  const read = async (key: string): Promise<string | null> => {
    const value = await state.get(key)
    if (value === null) return null
    if (isStoredSecret(value)) return value.secret
    // Never echo the value: it is (or was meant to be) a secret.
    throw new LithoError('ERR_STORAGE', `the stored webhook secret is malformed; rotate it to replace it`, { details: { adapter: state.name } })
  }
  const fresh = (): StoredSecret => ({ secret: generateWebhookSecret(), createdAt: new Date().toISOString() })

  return {
    async get(userId) {
      const key = webhookSecretKey(checkUserId(userId))
      const existing = await read(key)
      if (existing !== null) return existing
      const created = fresh()
      if (await state.add(key, created)) return created.secret
      // Another call created it between our read and our add: theirs is the secret.
      const winner = await read(key)
      if (winner !== null) return winner
      // It was deleted again in between (an account removal racing a delivery): start over once.
      const retry = fresh()
      if (await state.add(key, retry)) return retry.secret
      const last = await read(key)
      if (last !== null) return last
      throw new LithoError('ERR_STORAGE', 'the webhook secret could not be created; try again', { details: { adapter: state.name } })
    },

    async rotate(userId) {
      const key = webhookSecretKey(checkUserId(userId))
      const next = fresh()
      await state.swap(key, next)
      return next.secret
    },
  }
}

function isStoredSecret(value: unknown): value is StoredSecret {
  const candidate = value as Partial<StoredSecret> | null
  return typeof candidate === 'object' && candidate !== null && isWebhookSecret(candidate.secret) && typeof candidate.createdAt === 'string'
}

function checkUserId(userId: unknown): string {
  // The user ids of the account store; also keeps the store key within its alphabet.
  if (typeof userId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(userId)) {
    throw invalidArgument(`Expected userId to be 1-64 characters of [A-Za-z0-9_-] but received ${describeReceived(userId)}`)
  }
  return userId
}
