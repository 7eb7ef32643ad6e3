/**
 * The context, helpers and types the account store cases share (the cases themselves are in
 * `./cases/`, one file per topic; `./account-store-cases.ts` lists them in order).
 *
 * @module account-store/account-store-kit
 */
import { createHash } from 'node:crypto'
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { createRunPrefix } from '../_suite.js'
/** What a case gets: the suite's store, the factory, and ids unique to this run. */
export interface AccountStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: AccountStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<AccountStore>
  /** A valid user with a fresh id and email (`<id>@example.com`), unless `fields` says otherwise. */
  user: (fields?: Partial<UserRecord>) => UserRecord
  /**
   * A valid, active, never used key of `userId` with a fresh id and hash, created
   * 2026-01-01T00:00:00.000Z unless `fields` says otherwise.
   */
  key: (userId: string, fields?: Partial<KeyRecord>) => KeyRecord
}

/** One case of the suite. */
export interface AccountStoreCase {
  /** Stable title, `account store › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless the caller declares the store persistent (`persistent: true`). */
  needsPersistent?: boolean
  run: (context: AccountStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link AccountStoreCaseContext}. */
export function createAccountStoreCaseContext(
  store: AccountStore,
  create: () => AccountStore | Promise<AccountStore>,
  prefix = createRunPrefix(),
): AccountStoreCaseContext {
  let sequence = 0
  return {
    store,
    create: async () => create(),
    user: (fields = {}) => {
      const id = `${prefix}-u${++sequence}`
      return {
        id,
        email: `${id.toLowerCase()}@example.com`,
        passwordHash: `scrypt$16384$8$1$${Buffer.from(`salt-${id}`).toString('base64')}$${Buffer.from(`hash-${id}`).toString('base64')}`,
        plan: 'free',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        ...fields,
      }
    },
    key: (userId, fields = {}) => {
      const id = `${prefix}-k${++sequence}`
      return {
        id,
        userId,
        name: `Key ${sequence}`,
        hash: hashOf(`secret-${id}`),
        prefix: `lk_${id.slice(-5)}`,
        active: true,
        createdAt: '2026-01-01T00:00:00.000Z',
        lastUsedAt: null,
        ...fields,
      }
    },
  }
}

/** `sha256:<base64url>` of `secret`, the form the port stores. */
export function hashOf(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`
}

/** Every case, in the order they run. */


// --- internal helpers ---

export async function expectConflict(promise: Promise<unknown>, field: 'id' | 'email' | 'hash'): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, `expected a rejection with ERR_STORE_CONFLICT on ${field}`).toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT', details: { field } })
}

/** Exactly one of the calls resolves; every other rejects with a conflict on `field`. */
export async function expectOneWins(calls: Array<Promise<unknown>>, field: 'id' | 'email' | 'hash'): Promise<void> {
  const results = await Promise.allSettled(calls)
  expect(results.filter((r) => r.status === 'fulfilled').length, `creates of one ${field} that succeeded`).toBe(1)
  for (const result of results) {
    if (result.status === 'rejected') expect(result.reason).toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT', details: { field } })
  }
}
