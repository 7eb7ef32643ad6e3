/**
 * Auth state store cases: input validation: a TypeError, and nothing changed.
 *
 * @module auth-state-store/cases/input-validation
 */
import { expect } from 'vitest'
import { expectInvalid, type InvalidCode } from '../../_expect.js'
import type { AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: input validation: a TypeError, and nothing changed. */
export const inputValidationCases: readonly AuthStateStoreCase[] = [
  {
    title: 'auth state store › rejects an invalid key with a TypeError and changes nothing',
    async run({ store, key }) {
      const k = key('invalid-key')
      await store.set(k, { original: true })
      const bad: Array<[string, unknown, InvalidCode]> = [
        ['empty', '', 'ERR_INVALID_ARG_VALUE'],
        // Built on a valid key, so a store that strips or truncates would change it.
        ['with a slash', `${k}/a`, 'ERR_INVALID_ARG_VALUE'],
        ['with a space', `${k} a`, 'ERR_INVALID_ARG_VALUE'],
        ['with braces', `${k}{a}`, 'ERR_INVALID_ARG_VALUE'],
        ['with a newline', `${k}\n`, 'ERR_INVALID_ARG_VALUE'],
        ['non-ASCII', `${k}é`, 'ERR_INVALID_ARG_VALUE'],
        ['of 251 characters', k.padEnd(251, 'x'), 'ERR_INVALID_ARG_VALUE'],
        ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
        ['null', null, 'ERR_INVALID_ARG_TYPE'],
        ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
      ]
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of bad) {
        const v = value as string
        cases.push(
          [`get key ${label}`, () => store.get(v), code],
          [`set key ${label}`, () => store.set(v, { changed: true }), code],
          [`swap key ${label}`, () => store.swap(v, { changed: true }), code],
          [`add key ${label}`, () => store.add(v, { changed: true }), code],
          [`delete key ${label}`, () => store.delete(v), code],
        )
      }
      await expectInvalid(cases)
      expect(await store.get(k), 'the valid key the invalid ones were built on').toEqual({ original: true })
      expect(await store.get(k.padEnd(250, 'x')), 'the 251-character key cut to 250').toBeNull()
    },
  },
  {
    title: 'auth state store › rejects a value that is not JSON with a TypeError and changes nothing',
    async run({ store, key }) {
      const present = key('invalid-value-present')
      const absent = key('invalid-value-absent')
      await store.set(present, { original: true })
      const cyclic: Record<string, unknown> = { a: 1 }
      cyclic.self = cyclic
      const bad: Array<[string, unknown, InvalidCode]> = [
        ['undefined', undefined, 'ERR_INVALID_ARG_TYPE'],
        ['a function', () => 1, 'ERR_INVALID_ARG_TYPE'],
        ['a symbol', Symbol('s'), 'ERR_INVALID_ARG_TYPE'],
        ['a bigint', 1n, 'ERR_INVALID_ARG_TYPE'],
        ['NaN', Number.NaN, 'ERR_INVALID_ARG_VALUE'],
        ['Infinity', Number.POSITIVE_INFINITY, 'ERR_INVALID_ARG_VALUE'],
        ['an object holding a function', { f: () => 1 }, 'ERR_INVALID_ARG_VALUE'],
        ['an object holding a bigint', { n: 1n }, 'ERR_INVALID_ARG_VALUE'],
        ['an array holding NaN', [1, Number.NaN], 'ERR_INVALID_ARG_VALUE'],
        ['an object with a cycle', cyclic, 'ERR_INVALID_ARG_VALUE'],
      ]
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of bad) {
        for (const k of [present, absent]) {
          const where = k === present ? 'a present key' : 'an absent key'
          cases.push(
            [`set ${label} on ${where}`, () => store.set(k, value), code],
            [`swap ${label} on ${where}`, () => store.swap(k, value), code],
            [`add ${label} on ${where}`, () => store.add(k, value), code],
          )
        }
      }
      await expectInvalid(cases)
      expect(await store.get(present)).toEqual({ original: true })
      expect(await store.get(absent)).toBeNull()
    },
  },
  {
    title: 'auth state store › rejects an invalid ttlSeconds with a TypeError and changes nothing',
    async run({ store, key }) {
      const present = key('invalid-ttl-present')
      const absent = key('invalid-ttl-absent')
      await store.set(present, { original: true })
      const bad: Array<[string, unknown, InvalidCode]> = [
        ['ttlSeconds 0', { ttlSeconds: 0 }, 'ERR_INVALID_ARG_VALUE'],
        ['ttlSeconds -1', { ttlSeconds: -1 }, 'ERR_INVALID_ARG_VALUE'],
        ['ttlSeconds 1.5', { ttlSeconds: 1.5 }, 'ERR_INVALID_ARG_VALUE'],
        ['ttlSeconds NaN', { ttlSeconds: Number.NaN }, 'ERR_INVALID_ARG_VALUE'],
        ['ttlSeconds Infinity', { ttlSeconds: Number.POSITIVE_INFINITY }, 'ERR_INVALID_ARG_VALUE'],
        ["ttlSeconds '60'", { ttlSeconds: '60' }, 'ERR_INVALID_ARG_TYPE'],
        ['ttlSeconds null', { ttlSeconds: null }, 'ERR_INVALID_ARG_TYPE'],
        ["options 'x'", 'x', 'ERR_INVALID_ARG_TYPE'],
        ['options 60', 60, 'ERR_INVALID_ARG_TYPE'],
      ]
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of bad) {
        const options = value as { ttlSeconds?: number }
        for (const k of [present, absent]) {
          const where = k === present ? 'a present key' : 'an absent key'
          cases.push(
            [`set with ${label} on ${where}`, () => store.set(k, { changed: true }, options), code],
            [`swap with ${label} on ${where}`, () => store.swap(k, { changed: true }, options), code],
            [`add with ${label} on ${where}`, () => store.add(k, { changed: true }, options), code],
          )
        }
      }
      await expectInvalid(cases)
      expect(await store.get(present)).toEqual({ original: true })
      expect(await store.get(absent)).toBeNull()
    },
  },
]
