/**
 * Render-key authentication over the account store: the secret a request sent → its active
 * key and the user who owns it, or null.
 *
 * @module authenticate-render-key
 */
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import { hashRenderKey, isRenderKey, verifyRenderKey } from './render-keys.js'

/** An authenticated render request: the key used and its owner. */
export interface RenderKeyPrincipal {
  key: KeyRecord
  user: UserRecord
}

/** Options of {@link createRenderKeyAuthenticator}. */
export interface RenderKeyAuthenticatorOptions {
  accounts: Pick<AccountStore, 'findKeyByHash' | 'getUser' | 'markKeyUsed'>
  /** @default () => new Date() */
  now?: () => Date
  /**
   * `lastUsedAt` is written at most this often per key, in seconds: a busy key would otherwise
   * cost a write per render. @default 60
   */
  markUsedEverySeconds?: number
}

/** Checks render keys; see {@link createRenderKeyAuthenticator}. */
export type RenderKeyAuthenticator = (secret: string | null | undefined) => Promise<RenderKeyPrincipal | null>

/**
 * Creates the function that authenticates render requests. A value without the shape of a
 * key is refused before any lookup; a key is found by its SHA-256 hash (never by comparing
 * secrets), then checked again in constant time; deactivated keys and keys of deleted users
 * are refused. Backend failures reject (a request is never let through when the store is down).
 *
 * @example
 * const authenticate = createRenderKeyAuthenticator({ accounts })
 * const principal = await authenticate(request.headers.get('dma-api-key'))
 * if (!principal) return new Response('invalid render key', { status: 401 })
 */
export function createRenderKeyAuthenticator(options: RenderKeyAuthenticatorOptions): RenderKeyAuthenticator {
  const { accounts } = options
  const now = options.now ?? (() => new Date())
  const everyMs = (options.markUsedEverySeconds ?? 60) * 1000
  return async (secret) => {
    if (!isRenderKey(secret)) return null
    const key = await accounts.findKeyByHash(hashRenderKey(secret))
    if (key === null || !key.active || !verifyRenderKey(secret, key.hash)) return null
    const user = await accounts.getUser(key.userId)
    if (user === null) return null
    const at = now()
    if (key.lastUsedAt === null || at.getTime() - Date.parse(key.lastUsedAt) >= everyMs) {
      // Best effort (the port allows it to lag): never hold the request, never fail it.
      accounts.markKeyUsed(key.id, at.toISOString()).catch(() => {})
    }
    return { key, user }
  }
}
