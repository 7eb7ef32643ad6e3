/**
 * The account store port: users (who own designs, keys and a quota under a plan) and
 * their render keys.
 *
 * @module contracts/account-store
 */
import type { PlanId } from '../quota/plans.js'

/** A user account. */
export interface UserRecord {
  /** `[A-Za-z0-9_-]{1,64}`, e.g. `u_3Jx9Qm2L`. */
  id: string
  /** Normalised by the caller: trimmed and lower-cased. Unique. */
  email: string
  /** A password hash string (scrypt); never the password. */
  passwordHash: string
  /** The plan's name (`PLAN_NAME`): one of the server's plan table, checked by the server, not the store. */
  plan: PlanId
  /** ISO 8601 with an offset, set by the caller. */
  createdAt: string
  updatedAt: string
}

/** A render key as stored: the secret itself is never stored. */
export interface KeyRecord {
  /** `[A-Za-z0-9_-]{1,64}`, e.g. `key_3Jx9Qm2LpZ7a`. */
  id: string
  userId: string
  name: string
  /** `sha256:<base64url>` of the secret: what requests are looked up by. Unique. */
  hash: string
  /** What lists show, e.g. `lk_4fT9w…`. */
  prefix: string
  active: boolean
  createdAt: string
  /** When a request last used the key, or null. Best effort, may lag. */
  lastUsedAt: string | null
  /**
   * The salt of the key's link secret (docs/signed-render-links.md): base64url, 22-86
   * characters. Alone it signs nothing (the secret is derived from it and a master key kept
   * outside the stores). Absent: the key cannot sign render links until its link secret is rotated.
   */
  linkSalt?: string
}

/**
 * Stores users and their render keys. Every implementation passes the account-store suite
 * of `@litho/testing` (`runAccountStoreConformance`).
 *
 * Behaviour:
 * - "Not found" is `null` (get, find) or `false` (update, delete, setKeyActive), never an error.
 * - Records come back as stored, as copies.
 * - `createUser` rejects with a LithoError `ERR_STORE_CONFLICT` (`details.field`: `id` or
 *   `email`) when the id or the email is taken; `createKey` likewise for `id` or `hash`.
 *   Detection must hold for concurrent calls on one instance; across instances, ids and
 *   hashes are random and users are created by an administrator, so no atomicity is asked.
 * - `updateUser` replaces an existing user; `id`, `email` and `createdAt` must be those stored
 *   (else a TypeError `ERR_INVALID_ARG_VALUE`).
 * - `findKeyByHash` is how every render request authenticates: it reads its own writes and a
 *   deactivated or deleted key is not returned as active (deleted: `null`).
 * - `listKeys` returns a user's keys, newest first (ties by id), at most `limit` (1-100), after
 *   skipping the first `offset` (a whole number ≥ 0, default 0) of that order.
 * - `markKeyUsed` records `lastUsedAt`; it may be dropped or delayed, never fails a request
 *   for the caller's sake except when the backend is down.
 * - `listUsers` (optional) returns users in id order (code-unit order), at most `limit`
 *   (1-100), those with an id after `after` when given; `next` is the id to pass as `after` for
 *   the following page, or null after the last. Users created or deleted meanwhile may or may
 *   not show, but no user is listed twice and none present throughout is skipped.
 * - `deleteUser` (optional) deletes the user record only: the caller deletes the user's keys
 *   (and designs) first. Afterwards neither `getUser` nor `findUserByEmail` finds the user,
 *   lists omit it, and its email may be taken by `createUser` again.
 * - Invalid arguments reject with coded TypeErrors; backend failures with a LithoError
 *   `ERR_STORAGE`; nothing is half-written in a way a read could return.
 */
export interface AccountStore {
  /** Short name for messages, e.g. `fs`. */
  readonly name: string
  createUser(user: UserRecord): Promise<void>
  getUser(id: string): Promise<UserRecord | null>
  /** Looks a user up by email, normalised (trimmed, lower-cased) before the lookup. */
  findUserByEmail(email: string): Promise<UserRecord | null>
  updateUser(user: UserRecord): Promise<boolean>
  createKey(key: KeyRecord): Promise<void>
  getKey(id: string): Promise<KeyRecord | null>
  findKeyByHash(hash: string): Promise<KeyRecord | null>
  listKeys(userId: string, options: { limit: number; offset?: number }): Promise<KeyRecord[]>
  setKeyActive(id: string, active: boolean): Promise<boolean>
  markKeyUsed(id: string, at: string): Promise<void>
  deleteKey(id: string): Promise<boolean>
  /**
   * Replaces a key's `linkSalt` (rotating its link secret: every link signed before stops
   * working); `false` for an unknown key. Optional, so stores written before signed render
   * links still type-check: without it a key's link secret cannot be rotated.
   */
  setKeyLinkSalt?(id: string, linkSalt: string): Promise<boolean>
  /**
   * A page of users in id order (see above). Optional, so stores written before it still
   * type-check: without it users cannot be listed (`litho users list`).
   */
  listUsers?(options: { limit: number; after?: string }): Promise<{ users: UserRecord[]; next: string | null }>
  /**
   * Deletes a user record (not its keys: delete those first); `false` for an unknown user.
   * Optional, like `listUsers`: without it users cannot be deleted (`litho users delete`).
   */
  deleteUser?(id: string): Promise<boolean>
  /** Releases connections. */
  dispose?(): Promise<void>
}
