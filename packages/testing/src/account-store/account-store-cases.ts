/**
 * The cases of the account-store conformance suite, as data: a stable title, whether a case
 * needs a persistent store, and a function that throws when the store breaks the contract.
 * `runAccountStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly.
 *
 * @module account-store/account-store-cases
 */
import { createHash } from 'node:crypto'
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually, expectInvalid, INVALID_IDS, type InvalidCode } from '../_expect.js'
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
export const accountStoreCases: readonly AccountStoreCase[] = [
  // --- users ---
  {
    title: 'account store › createUser then getUser returns every field',
    async run({ store, user }) {
      const created = user({ plan: 'pro', createdAt: '2026-02-03T04:05:06.789Z', updatedAt: '2026-02-03T04:05:07+01:00' })
      await store.createUser(created)
      expect(await store.getUser(created.id)).toEqual(created)
    },
  },
  {
    title: 'account store › getUser and findUserByEmail of unknown ones return null',
    async run({ store, user }) {
      const missing = user()
      expect(await store.getUser(missing.id)).toBeNull()
      expect(await store.findUserByEmail(missing.email)).toBeNull()
    },
  },
  {
    title: 'account store › returned users are copies',
    async run({ store, user }) {
      const created = user()
      const original = { ...created }
      await store.createUser(created)
      created.plan = 'unlimited'
      const first = (await store.getUser(original.id)) as UserRecord
      expect(first).toEqual(original)
      first.plan = 'unlimited'
      first.passwordHash = 'changed'
      expect(await store.getUser(original.id)).toEqual(original)
      const byEmail = (await store.findUserByEmail(original.email)) as UserRecord
      byEmail.plan = 'unlimited'
      expect(await store.findUserByEmail(original.email)).toEqual(original)
    },
  },
  {
    title: 'account store › findUserByEmail normalises the email (trimmed, lower-cased) before the lookup',
    async run({ store, user }) {
      const created = user()
      await store.createUser(created)
      const [local, domain] = created.email.split('@') as [string, string]
      expect(await store.findUserByEmail(created.email)).toEqual(created)
      expect(await store.findUserByEmail(`  ${local.toUpperCase()}@${domain.replace('example', 'Example').replace('com', 'COM')} `)).toEqual(created)
      expect(await store.findUserByEmail(`\t${created.email}\n`)).toEqual(created)
      expect(await store.findUserByEmail(`x${created.email}`)).toBeNull()
    },
  },
  {
    title: 'account store › emails with any characters are found, and only by their own email',
    async run({ store, user }) {
      const odd = user()
      const tricky = user()
      const a = { ...odd, email: `${odd.id.toLowerCase()}+tag/../:*?"<>|%00@例え.jp` }
      const b = { ...tricky, email: `${odd.id.toLowerCase()}+tag/../:*?"<>|%00@例え.jp.` }
      await store.createUser(a)
      await store.createUser(b)
      expect(await store.findUserByEmail(a.email)).toEqual(a)
      expect(await store.findUserByEmail(b.email)).toEqual(b)
    },
  },
  {
    title: 'account store › createUser rejects a reused id with ERR_STORE_CONFLICT (field id) and keeps the first',
    async run({ store, user }) {
      const first = user()
      await store.createUser(first)
      const second = user({ id: first.id, plan: 'pro' })
      await expectConflict(store.createUser(second), 'id')
      expect(await store.getUser(first.id)).toEqual(first)
      expect(await store.findUserByEmail(second.email)).toBeNull()
    },
  },
  {
    title: 'account store › createUser rejects a reused email with ERR_STORE_CONFLICT (field email) and keeps the first',
    async run({ store, user }) {
      const first = user()
      await store.createUser(first)
      const second = user({ email: first.email })
      await expectConflict(store.createUser(second), 'email')
      expect(await store.getUser(second.id)).toBeNull()
      expect(await store.findUserByEmail(first.email)).toEqual(first)
    },
  },
  {
    title: 'account store › concurrent createUser of one id or one email: exactly one succeeds',
    async run({ store, user }) {
      const byId = user()
      const sameId = Array.from({ length: 5 }, (_, index) => ({ ...user(), id: byId.id, updatedAt: `2026-01-01T00:00:0${index}.000Z` }))
      await expectOneWins(sameId.map((u) => store.createUser(u)), 'id')
      const winner = (await store.getUser(byId.id)) as UserRecord
      expect(sameId, 'the stored user is one of those created, whole').toContainEqual(winner)
      expect(await store.findUserByEmail(winner.email)).toEqual(winner)
      for (const loser of sameId.filter((u) => u.email !== winner.email)) expect(await store.findUserByEmail(loser.email), 'the email of a losing create').toBeNull()

      const byEmail = user()
      const sameEmail = Array.from({ length: 5 }, () => user({ email: byEmail.email }))
      await expectOneWins(sameEmail.map((u) => store.createUser(u)), 'email')
      const found = await store.findUserByEmail(byEmail.email)
      expect(sameEmail).toContainEqual(found)
      const stored = await Promise.all(sameEmail.map((u) => store.getUser(u.id)))
      expect(stored.filter((u) => u !== null), 'users stored with the email').toEqual([found])
    },
  },
  {
    title: 'account store › updateUser replaces an existing user and returns true',
    async run({ store, user }) {
      const created = user()
      await store.createUser(created)
      const updated = { ...created, plan: 'basic' as const, passwordHash: 'scrypt$new', updatedAt: '2026-03-01T00:00:00.000Z' }
      expect(await store.updateUser(updated)).toBe(true)
      expect(await store.getUser(created.id)).toEqual(updated)
      expect(await store.findUserByEmail(created.email)).toEqual(updated)
    },
  },
  {
    title: 'account store › updateUser of an unknown id returns false and creates nothing',
    async run({ store, user }) {
      const missing = user()
      expect(await store.updateUser(missing)).toBe(false)
      expect(await store.getUser(missing.id)).toBeNull()
      expect(await store.findUserByEmail(missing.email)).toBeNull()
    },
  },
  {
    title: 'account store › updateUser changing email or createdAt rejects with a TypeError ERR_INVALID_ARG_VALUE and changes nothing',
    async run({ store, user }) {
      const created = user()
      await store.createUser(created)
      const changes: Array<[string, Partial<UserRecord>]> = [
        ['email', { email: user().email }],
        ['createdAt', { createdAt: '2026-01-02T00:00:00.000Z' }],
      ]
      for (const [field, change] of changes) {
        const error = await store.updateUser({ ...created, ...change, plan: 'pro' }).then(() => undefined, (reason: unknown) => reason)
        expect(error, `updateUser changing ${field}`).toBeInstanceOf(TypeError)
        expect((error as { code?: unknown }).code, `updateUser changing ${field}: code`).toBe('ERR_INVALID_ARG_VALUE')
      }
      expect(await store.getUser(created.id)).toEqual(created)
      expect(await store.findUserByEmail(changes[0]![1].email!)).toBeNull()
    },
  },

  // --- keys ---
  {
    title: 'account store › createKey then getKey and findKeyByHash return every field',
    async run({ store, key, user }) {
      const created = key(user().id, { name: 'CI — 夏 "quoted"', lastUsedAt: '2026-01-02T00:00:00.000Z' })
      await store.createKey(created)
      expect(await store.getKey(created.id)).toEqual(created)
      expect(await store.findKeyByHash(created.hash)).toEqual(created)
    },
  },
  {
    title: 'account store › getKey and findKeyByHash of unknown ones return null',
    async run({ store, key, user }) {
      const missing = key(user().id)
      expect(await store.getKey(missing.id)).toBeNull()
      expect(await store.findKeyByHash(missing.hash)).toBeNull()
    },
  },
  {
    title: 'account store › returned keys are copies',
    async run({ store, key, user }) {
      const created = key(user().id)
      const original = { ...created }
      await store.createKey(created)
      created.active = false
      const first = (await store.getKey(original.id)) as KeyRecord
      expect(first).toEqual(original)
      first.active = false
      expect(await store.getKey(original.id)).toEqual(original)
      const byHash = (await store.findKeyByHash(original.hash)) as KeyRecord
      byHash.active = false
      expect(await store.findKeyByHash(original.hash)).toEqual(original)
      const [listed] = await store.listKeys(original.userId, { limit: 10 })
      ;(listed as KeyRecord).active = false
      expect(await store.findKeyByHash(original.hash)).toEqual(original)
    },
  },
  {
    title: 'account store › createKey rejects a reused id with ERR_STORE_CONFLICT (field id) and keeps the first',
    async run({ store, key, user }) {
      const first = key(user().id)
      await store.createKey(first)
      const second = key(user().id, { id: first.id })
      await expectConflict(store.createKey(second), 'id')
      expect(await store.getKey(first.id)).toEqual(first)
      expect(await store.findKeyByHash(second.hash)).toBeNull()
    },
  },
  {
    title: 'account store › createKey rejects a reused hash with ERR_STORE_CONFLICT (field hash) and keeps the first',
    async run({ store, key, user }) {
      const first = key(user().id)
      await store.createKey(first)
      const second = key(user().id, { hash: first.hash })
      await expectConflict(store.createKey(second), 'hash')
      expect(await store.getKey(second.id)).toBeNull()
      expect(await store.findKeyByHash(first.hash)).toEqual(first)
    },
  },
  {
    title: 'account store › concurrent createKey of one id or one hash: exactly one succeeds',
    async run({ store, key, user }) {
      const owner = user().id
      const byId = key(owner)
      await expectOneWins(Array.from({ length: 5 }, () => store.createKey({ ...key(owner), id: byId.id })), 'id')
      const byHash = key(owner)
      const sameHash = Array.from({ length: 5 }, () => key(owner, { hash: byHash.hash }))
      await expectOneWins(sameHash.map((k) => store.createKey(k)), 'hash')
      const found = await store.findKeyByHash(byHash.hash)
      expect(sameHash).toContainEqual(found)
      expect(await store.listKeys(owner, { limit: 100 }), 'keys listed: one per id, one per hash').toHaveLength(2)
    },
  },
  {
    title: 'account store › setKeyActive(false) then findKeyByHash shows active false; true again reactivates',
    async run({ store, key, user }) {
      const created = key(user().id)
      await store.createKey(created)
      expect(await store.setKeyActive(created.id, false)).toBe(true)
      expect(await store.findKeyByHash(created.hash)).toEqual({ ...created, active: false })
      expect(await store.getKey(created.id)).toEqual({ ...created, active: false })
      expect(await store.setKeyActive(created.id, false), 'deactivating twice').toBe(true)
      expect(await store.setKeyActive(created.id, true)).toBe(true)
      expect(await store.findKeyByHash(created.hash)).toEqual(created)
      expect(await store.setKeyActive(key(created.userId).id, false), 'an unknown key').toBe(false)
    },
  },
  {
    title: 'account store › deleteKey then findKeyByHash and getKey return null; the hash can be used again',
    async run({ store, key, user }) {
      const owner = user().id
      const kept = key(owner)
      const deleted = key(owner, { createdAt: '2026-01-02T00:00:00.000Z' })
      await store.createKey(kept)
      await store.createKey(deleted)
      expect(await store.deleteKey(deleted.id)).toBe(true)
      expect(await store.findKeyByHash(deleted.hash)).toBeNull()
      expect(await store.getKey(deleted.id)).toBeNull()
      expect(await store.listKeys(owner, { limit: 100 })).toEqual([kept])
      expect(await store.deleteKey(deleted.id), 'a second delete').toBe(false)
      expect(await store.setKeyActive(deleted.id, true), 'setKeyActive after delete').toBe(false)
      await store.markKeyUsed(deleted.id, '2026-01-03T00:00:00.000Z')
      expect(await store.getKey(deleted.id), 'markKeyUsed after delete creates nothing').toBeNull()
      expect(await store.findKeyByHash(kept.hash)).toEqual(kept)
      const again = key(owner, { hash: deleted.hash })
      await store.createKey(again)
      expect(await store.findKeyByHash(deleted.hash)).toEqual(again)
    },
  },
  {
    title: 'account store › markKeyUsed sets lastUsedAt, seen by getKey and findKeyByHash',
    async run({ store, key, user }) {
      const created = key(user().id)
      await store.createKey(created)
      await store.markKeyUsed(created.id, '2026-01-05T00:00:00.000Z')
      const used = { ...created, lastUsedAt: '2026-01-05T00:00:00.000Z' }
      await eventually(async () => expect(await store.getKey(created.id)).toEqual(used))
      expect(await store.findKeyByHash(created.hash)).toEqual(used)
      await expect(store.markKeyUsed(key(created.userId).id, '2026-01-05T00:00:00.000Z'), 'an unknown key').resolves.toBeUndefined()
    },
  },
  {
    title: 'account store › listKeys returns newest first, ties by id, at most limit',
    async run({ store, key, user }) {
      const owner = user().id
      const at = (day: number) => `2026-04-0${day}T00:00:00.000Z`
      const keys = [
        key(owner, { createdAt: at(1) }),
        key(owner, { createdAt: at(3) }),
        key(owner, { createdAt: at(2) }),
        key(owner, { createdAt: at(2) }),
        // The same instant written another way sorts as the same time.
        key(owner, { createdAt: '2026-04-02T02:00:00+02:00' }),
      ]
      for (const k of [...keys].reverse()) await store.createKey(k)
      const [oldest, newest, tieA, tieB, tieC] = keys as [KeyRecord, KeyRecord, KeyRecord, KeyRecord, KeyRecord]
      const ties = [tieA, tieB, tieC].sort((a, b) => (a.id < b.id ? -1 : 1))
      const expected = [newest, ...ties, oldest]
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual(expected))
      expect(await store.listKeys(owner, { limit: 2 })).toEqual(expected.slice(0, 2))
      expect(await store.listKeys(owner, { limit: 1 })).toEqual(expected.slice(0, 1))
      expect(await store.listKeys(user().id, { limit: 100 }), 'a user without keys').toEqual([])
    },
  },
  {
    title: 'account store › listKeys pages with offset, in the same order',
    async run({ store, key, user }) {
      const owner = user().id
      const keys = Array.from({ length: 5 }, (_, day) => key(owner, { createdAt: `2026-05-0${day + 1}T00:00:00.000Z` }))
      for (const k of keys) await store.createKey(k)
      const newestFirst = [...keys].reverse()
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual(newestFirst))
      expect(await store.listKeys(owner, { limit: 2, offset: 0 })).toEqual(newestFirst.slice(0, 2))
      expect(await store.listKeys(owner, { limit: 2, offset: 2 })).toEqual(newestFirst.slice(2, 4))
      expect(await store.listKeys(owner, { limit: 2, offset: 4 })).toEqual(newestFirst.slice(4))
      expect(await store.listKeys(owner, { limit: 2, offset: 5 }), 'past the end').toEqual([])
      await expect(store.listKeys(owner, { limit: 2, offset: -1 }), 'a negative offset').rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
    },
  },
  {
    title: 'account store › listKeys keeps users apart, even when one id is a prefix of another',
    async run({ store, key, user }) {
      const base = user().id
      const owners = [base, `${base}1`, `${base}-1`]
      const keys = owners.map((owner) => key(owner))
      for (const k of keys) await store.createKey(k)
      await eventually(async () => {
        for (const [index, owner] of owners.entries()) expect(await store.listKeys(owner, { limit: 100 }), owner).toEqual([keys[index]])
      })
    },
  },
  {
    title: 'account store › 30 concurrent createKey for one user all appear in the list',
    async run({ store, key, user }) {
      const owner = user().id
      const keys = Array.from({ length: 30 }, (_, index) => key(owner, { createdAt: `2026-06-01T00:00:${String(index).padStart(2, '0')}.000Z` }))
      await Promise.all(keys.map((k) => store.createKey(k)))
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual([...keys].reverse()))
    },
  },

  // --- persistence ---
  {
    title: 'account store › a new store over the same storage sees earlier users and keys',
    needsPersistent: true,
    async run({ create, user, key }) {
      const first = await create()
      const created = user()
      const createdKey = key(created.id)
      try {
        await first.createUser(created)
        await first.createKey(createdKey)
        await first.setKeyActive(createdKey.id, false)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      const storedKey = { ...createdKey, active: false }
      try {
        expect(await second.getUser(created.id)).toEqual(created)
        expect(await second.findUserByEmail(created.email)).toEqual(created)
        expect(await second.getKey(createdKey.id)).toEqual(storedKey)
        expect(await second.findKeyByHash(createdKey.hash)).toEqual(storedKey)
        await eventually(async () => expect(await second.listKeys(created.id, { limit: 10 })).toEqual([storedKey]))
        await expectConflict(second.createUser(user({ email: created.email })), 'email')
        await expectConflict(second.createKey(key(created.id, { hash: createdKey.hash })), 'hash')
      } finally {
        await second.dispose?.()
      }
    },
  },

  // --- input validation: the same TypeError from every store, and nothing written ---
  {
    title: 'account store › rejects invalid ids with a TypeError',
    async run({ store, user, key }) {
      const owner = user().id
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of INVALID_IDS) {
        const v = value as string
        cases.push(
          [`getUser ${label}`, () => store.getUser(v), code],
          [`createUser id ${label}`, () => store.createUser(user({ id: v })), code],
          [`updateUser id ${label}`, () => store.updateUser(user({ id: v })), code],
          [`getKey ${label}`, () => store.getKey(v), code],
          [`createKey id ${label}`, () => store.createKey(key(owner, { id: v })), code],
          [`createKey userId ${label}`, () => store.createKey(key(v)), code],
          [`listKeys ${label}`, () => store.listKeys(v, { limit: 10 }), code],
          [`setKeyActive ${label}`, () => store.setKeyActive(v, false), code],
          [`markKeyUsed ${label}`, () => store.markKeyUsed(v, '2026-01-01T00:00:00.000Z'), code],
          [`deleteKey ${label}`, () => store.deleteKey(v), code],
        )
      }
      await expectInvalid(cases)
      expect(await store.listKeys(owner, { limit: 100 })).toEqual([])
    },
  },
  {
    title: 'account store › rejects a user with a field of the wrong type or value with a TypeError',
    async run({ store, user }) {
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const value of [null, undefined, 'user', 1, []]) {
        const v = value as never
        cases.push([`createUser(${JSON.stringify(value)})`, () => store.createUser(v), 'ERR_INVALID_ARG_TYPE'], [`updateUser(${JSON.stringify(value)})`, () => store.updateUser(v), 'ERR_INVALID_ARG_TYPE'])
      }
      const fields: Array<[string, Partial<Record<keyof UserRecord, unknown>>, InvalidCode]> = [
        ['email 42', { email: 42 }, 'ERR_INVALID_ARG_TYPE'],
        ['email missing', { email: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['email empty', { email: '' }, 'ERR_INVALID_ARG_VALUE'],
        ['email not lower-cased', { email: 'Ann@example.com' }, 'ERR_INVALID_ARG_VALUE'],
        ['email not trimmed', { email: ' ann@example.com' }, 'ERR_INVALID_ARG_VALUE'],
        ['passwordHash missing', { passwordHash: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['passwordHash empty', { passwordHash: '' }, 'ERR_INVALID_ARG_VALUE'],
        ["plan 'gold'", { plan: 'gold' }, 'ERR_INVALID_ARG_VALUE'],
        ['plan missing', { plan: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['createdAt a Date', { createdAt: new Date() }, 'ERR_INVALID_ARG_TYPE'],
        ["createdAt 'yesterday'", { createdAt: 'yesterday' }, 'ERR_INVALID_ARG_VALUE'],
        ["updatedAt '2026-13-45T00:00:00Z'", { updatedAt: '2026-13-45T00:00:00Z' }, 'ERR_INVALID_ARG_VALUE'],
      ]
      const attempted: UserRecord[] = []
      for (const [label, change, code] of fields) {
        const candidate = user(change as Partial<UserRecord>)
        attempted.push(candidate)
        cases.push([`createUser with ${label}`, () => store.createUser(candidate), code])
      }
      await expectInvalid(cases)
      for (const candidate of attempted) expect(await store.getUser(candidate.id), `nothing stored for ${candidate.id}`).toBeNull()
      await expectInvalid([
        ['findUserByEmail 42', () => store.findUserByEmail(42 as never), 'ERR_INVALID_ARG_TYPE'],
        ['findUserByEmail missing', () => store.findUserByEmail(undefined as never), 'ERR_INVALID_ARG_TYPE'],
        ['findUserByEmail blank', () => store.findUserByEmail('   '), 'ERR_INVALID_ARG_VALUE'],
      ])
    },
  },
  {
    title: 'account store › rejects a key with a field of the wrong type or value with a TypeError',
    async run({ store, key, user }) {
      const owner = user().id
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const value of [null, undefined, 'key', 1, []]) {
        cases.push([`createKey(${JSON.stringify(value)})`, () => store.createKey(value as never), 'ERR_INVALID_ARG_TYPE'])
      }
      const fields: Array<[string, Partial<Record<keyof KeyRecord, unknown>>, InvalidCode]> = [
        ['name 42', { name: 42 }, 'ERR_INVALID_ARG_TYPE'],
        ['prefix missing', { prefix: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['hash 42', { hash: 42 }, 'ERR_INVALID_ARG_TYPE'],
        ["hash 'sha256:short'", { hash: 'sha256:short' }, 'ERR_INVALID_ARG_VALUE'],
        ['hash without sha256:', { hash: hashOf('x').slice('sha256:'.length) }, 'ERR_INVALID_ARG_VALUE'],
        ["active 'yes'", { active: 'yes' }, 'ERR_INVALID_ARG_TYPE'],
        ['active missing', { active: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ["createdAt 'yesterday'", { createdAt: 'yesterday' }, 'ERR_INVALID_ARG_VALUE'],
        ['lastUsedAt missing', { lastUsedAt: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ["lastUsedAt 'never'", { lastUsedAt: 'never' }, 'ERR_INVALID_ARG_VALUE'],
      ]
      for (const [label, change, code] of fields) cases.push([`createKey with ${label}`, () => store.createKey(key(owner, change as Partial<KeyRecord>)), code])
      const existing = key(owner)
      cases.push(
        ['findKeyByHash 42', () => store.findKeyByHash(42 as never), 'ERR_INVALID_ARG_TYPE'],
        ["findKeyByHash 'sha256:short'", () => store.findKeyByHash('sha256:short'), 'ERR_INVALID_ARG_VALUE'],
        ['findKeyByHash empty', () => store.findKeyByHash(''), 'ERR_INVALID_ARG_VALUE'],
        ["setKeyActive 'false'", () => store.setKeyActive(existing.id, 'false' as never), 'ERR_INVALID_ARG_TYPE'],
        ["markKeyUsed at 'now'", () => store.markKeyUsed(existing.id, 'now'), 'ERR_INVALID_ARG_VALUE'],
        ['markKeyUsed at a Date', () => store.markKeyUsed(existing.id, new Date() as never), 'ERR_INVALID_ARG_TYPE'],
      )
      await expectInvalid(cases)
      expect(await store.listKeys(owner, { limit: 100 })).toEqual([])
    },
  },
  {
    title: 'account store › listKeys rejects a limit outside 1 to 100 with a TypeError',
    async run({ store, user }) {
      const owner = user().id
      const list = (options: unknown) => () => store.listKeys(owner, options as { limit: number })
      await expectInvalid([
        ['limit 0', list({ limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 101', list({ limit: 101 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit -1', list({ limit: -1 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 2.5', list({ limit: 2.5 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit NaN', list({ limit: Number.NaN }), 'ERR_INVALID_ARG_VALUE'],
        ['limit Infinity', list({ limit: Number.POSITIVE_INFINITY }), 'ERR_INVALID_ARG_VALUE'],
        ["limit '10'", list({ limit: '10' }), 'ERR_INVALID_ARG_TYPE'],
        ['limit missing', list({}), 'ERR_INVALID_ARG_TYPE'],
        ['options null', list(null), 'ERR_INVALID_ARG_TYPE'],
        ['options missing', list(undefined), 'ERR_INVALID_ARG_TYPE'],
      ])
      expect(await store.listKeys(owner, { limit: 1 })).toEqual([])
      expect(await store.listKeys(owner, { limit: 100 })).toEqual([])
    },
  },
]

// --- internal helpers ---

async function expectConflict(promise: Promise<unknown>, field: 'id' | 'email' | 'hash'): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, `expected a rejection with ERR_STORE_CONFLICT on ${field}`).toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT', details: { field } })
}

/** Exactly one of the calls resolves; every other rejects with a conflict on `field`. */
async function expectOneWins(calls: Array<Promise<unknown>>, field: 'id' | 'email' | 'hash'): Promise<void> {
  const results = await Promise.allSettled(calls)
  expect(results.filter((r) => r.status === 'fulfilled').length, `creates of one ${field} that succeeded`).toBe(1)
  for (const result of results) {
    if (result.status === 'rejected') expect(result.reason).toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT', details: { field } })
  }
}
