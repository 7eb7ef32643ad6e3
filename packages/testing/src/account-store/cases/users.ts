/**
 * Account store cases: users.
 *
 * @module account-store/cases/users
 */
import type { UserRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectConflict, expectOneWins, type AccountStoreCase } from '../account-store-kit.js'

/** The account store cases of this topic: users. */
export const usersCases: readonly AccountStoreCase[] = [
  {
    title: 'account store › createUser then getUser returns every field',
    async run({ store, user }) {
      const created = user({ plan: 'pro', createdAt: '2026-02-03T04:05:06.789Z', updatedAt: '2026-02-03T04:05:07+01:00' })
      await store.createUser(created)
      expect(await store.getUser(created.id)).toEqual(created)
    },
  },
  {
    title: "account store › keeps a plan of an operator's own table (any plan name, not only the default four)",
    async run({ store, user }) {
      for (const plan of ['team', 'gold-2026', 'a', `p${'x'.repeat(31)}`]) {
        const created = user({ plan })
        await store.createUser(created)
        expect((await store.getUser(created.id))?.plan).toBe(plan)
        await store.updateUser({ ...created, plan: 'free' })
        expect((await store.getUser(created.id))?.plan).toBe('free')
      }
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
]
