/**
 * The auth state store port: short-lived, security-critical state of the built-in OAuth
 * authorization server (orgs and their signing keys, registered clients, authorization codes,
 * refresh tokens, sign-in sessions), as JSON values under string keys with an optional TTL,
 * with the two atomic operations that single-use codes and token rotation need.
 *
 * @module contracts/auth-state-store
 */

/**
 * A key-value store with expiry and atomic swap. Every implementation passes the auth-state
 * suite of `@litho/testing` (`runAuthStateStoreConformance`).
 *
 * Behaviour:
 * - Keys are `[A-Za-z0-9_.:-]{1,250}`; values are JSON (objects, arrays, strings, numbers,
 *   booleans; not `undefined`), stored and returned as equal copies.
 * - "Not found" (never set, deleted, or expired) is `null`, never an error.
 * - `ttlSeconds` (a whole number ≥ 1) makes the value expire: after that, every read treats
 *   it as absent. Without it the value stays until deleted. Expiry may be up to one second late.
 * - `swap` is **atomic**: it writes the new value and returns the value it replaced (or null),
 *   as one step. Of N concurrent swaps on one key exactly one sees the value that was there
 *   before them, on one instance or on many sharing a backend. Never a read followed by a write.
 * - `add` is **atomic**: it writes only when the key is absent (or expired) and says whether
 *   it did. Of N concurrent adds on one key exactly one returns true.
 * - `get` after a completed `set`, `swap`, `add` or `delete` on the same instance sees it;
 *   across instances that share a backend it does too (no caching).
 * - Backend failures reject with a LithoError `ERR_STORAGE`; invalid arguments reject with a
 *   TypeError coded `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE`.
 */
export interface AuthStateStore {
  /** Short name for messages, e.g. `redis`. */
  readonly name: string
  /** What this store guarantees beyond the contract; the suite tests what is declared. */
  readonly capabilities: AuthStateCapabilities
  get(key: string): Promise<unknown | null>
  set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void>
  /** Writes `value` and returns the value it replaced (null when there was none), atomically. */
  swap(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<unknown | null>
  /** Writes `value` only when `key` is absent; true when it wrote. Atomic. */
  add(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<boolean>
  /** Removes the key; true when there was a value. */
  delete(key: string): Promise<boolean>
  /** Releases connections and timers. */
  dispose?(): Promise<void>
}

/** What an auth state store guarantees beyond the contract. */
export interface AuthStateCapabilities {
  /** Values survive a restart (a new instance on the same storage sees them). */
  persistent: boolean
  /** Several processes or machines may share the backend and `swap`/`add` stay atomic. */
  shared: boolean
}
