/**
 * Account store cases: input validation: the same TypeError from every store, and nothing written.
 *
 * @module account-store/cases/input-validation
 */
import type { KeyRecord, UserRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, INVALID_IDS, type InvalidCode } from '../../_expect.js'
import { hashOf, type AccountStoreCase } from '../account-store-kit.js'

/** The account store cases of this topic: input validation: the same TypeError from every store, and nothing written. */
export const inputValidationCases: readonly AccountStoreCase[] = [
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
        ["plan 'Gold' (not a plan name: upper case)", { plan: 'Gold' }, 'ERR_INVALID_ARG_VALUE'],
        ["plan '-team' (starts with -)", { plan: '-team' }, 'ERR_INVALID_ARG_VALUE'],
        ['plan of 33 characters', { plan: `p${'x'.repeat(32)}` }, 'ERR_INVALID_ARG_VALUE'],
        ["plan ''", { plan: '' }, 'ERR_INVALID_ARG_VALUE'],
        ["plan 'team\n'", { plan: 'team\n' }, 'ERR_INVALID_ARG_VALUE'],
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
