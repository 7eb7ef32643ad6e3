/**
 * The cases of the auth-state-store conformance suite, as data: a stable title, the capability
 * a case needs, and a function that throws when the store breaks the contract.
 * `runAuthStateStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly (a control can prove the concurrency cases catch a read-then-write swap).
 *
 * @module auth-state-store/auth-state-store-cases
 */
import type { AuthStateCapabilities, AuthStateStore } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually, expectInvalid, type InvalidCode } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** What a case gets: the suite's store, the factory, and keys unique to this run. */
export interface AuthStateStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: AuthStateStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<AuthStateStore>
  /** A key unique to this run and `label`: `<run prefix>:<label>`. */
  key: (label: string) => string
}

/** One case of the suite. */
export interface AuthStateStoreCase {
  /** Stable title, `auth state store › <behaviour>`; also the name to skip it by. */
  title: string
  /** The capability the case tests; it is skipped when the store does not declare it. */
  needs?: keyof AuthStateCapabilities
  run: (context: AuthStateStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link AuthStateStoreCaseContext}. */
export function createAuthStateStoreCaseContext(
  store: AuthStateStore,
  create: () => AuthStateStore | Promise<AuthStateStore>,
  prefix = createRunPrefix(),
): AuthStateStoreCaseContext {
  return { store, create: async () => create(), key: (label) => `${prefix}:${label}` }
}

/** How many racers the concurrency cases start. */
const RACERS = 50
/** The TTL the expiry cases use, and how long they wait for it: the port allows expiry to be a second late. */
const TTL = { ttlSeconds: 1 }
const EXPIRY_WAIT_MS = 3_000

/** JSON values of every kind the port stores, each with a label. */
const VALUES: ReadonlyArray<[label: string, value: unknown]> = [
  ['an object', { clientId: 'c1', scopes: ['read', 'write'], nested: { count: 2, ok: true, none: null } }],
  ['an array', [1, 'two', { three: 3 }, [4], null, false]],
  ['a string', 'rt_4fT9wQm2L'],
  ['an empty string', ''],
  ['a string with quotes, escapes and non-ASCII', 'é "quoted" \\ \n\t 𝄞 {}'],
  ['zero', 0],
  ['a negative fraction', -12.5],
  ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ['true', true],
  ['false', false],
  ['an empty object', {}],
  ['an empty array', []],
]

/** Every case, in the order they run. */
export const authStateStoreCases: readonly AuthStateStoreCase[] = [
  // --- reads and writes ---
  {
    title: 'auth state store › get of a missing key returns null',
    async run({ store, key }) {
      expect(await store.get(key('missing'))).toBeNull()
    },
  },
  {
    title: 'auth state store › set then get returns an equal value of every JSON kind',
    async run({ store, key }) {
      for (const [index, [, value]] of VALUES.entries()) await store.set(key(`kinds-${index}`), value)
      for (const [index, [label, value]] of VALUES.entries()) expect(await store.get(key(`kinds-${index}`)), label).toStrictEqual(value)
    },
  },
  {
    title: 'auth state store › values are copies: changing the given or the returned value changes nothing stored',
    async run({ store, key }) {
      const k = key('copies')
      const original = { list: [1, 2], nested: { a: 1 } }
      const given = structuredClone(original)
      await store.set(k, given)
      given.nested.a = 99
      given.list.push(3)
      const first = (await store.get(k)) as typeof original
      expect(first).toEqual(original)
      first.nested.a = 42
      first.list.push(4)
      expect(await store.get(k)).toEqual(original)
      // The previous value returned by swap is a copy too.
      const previous = (await store.swap(k, original)) as typeof original
      previous.nested.a = 7
      expect(await store.get(k)).toEqual(original)
    },
  },
  {
    title: 'auth state store › set overwrites the value, of any kind',
    async run({ store, key }) {
      const k = key('overwrite')
      await store.set(k, { version: 1 })
      await store.set(k, { version: 2 })
      expect(await store.get(k)).toEqual({ version: 2 })
      await store.set(k, 'now a string')
      expect(await store.get(k)).toBe('now a string')
    },
  },
  {
    title: 'auth state store › delete returns true when there was a value, then false',
    async run({ store, key }) {
      const k = key('delete')
      await store.set(k, { a: 1 })
      expect(await store.delete(k)).toBe(true)
      expect(await store.get(k)).toBeNull()
      expect(await store.delete(k)).toBe(false)
      expect(await store.delete(key('delete-never-set'))).toBe(false)
      // A deleted key can be written again.
      await store.set(k, { a: 2 })
      expect(await store.get(k)).toEqual({ a: 2 })
    },
  },
  {
    title: "auth state store › keys that differ only in case, dots or where ':' falls are independent",
    async run({ store, key }) {
      // Stores that build file names or paths from keys must not merge these.
      const k = key('exact-keys')
      const keys = [k, `${k}:a`, `${k}.a`, `${k}:A`, `${k}::a`, `${k}:a:`, `${k}:..`, `${k}:.`, `${k}:.a`, `${k}-a`, `${k}_a`, `${k}a`, `${k}A`]
      for (const [index, each] of keys.entries()) await store.set(each, index)
      for (const [index, each] of keys.entries()) expect(await store.get(each), each).toBe(index)
    },
  },
  {
    title: 'auth state store › the longest key (250 characters) is kept whole',
    async run({ store, key }) {
      const k = key('long-')
      const longest = k.padEnd(250, 'x')
      const shorter = k.padEnd(249, 'x')
      await store.set(longest, { length: 250 })
      expect(await store.get(longest)).toEqual({ length: 250 })
      expect(await store.get(shorter)).toBeNull()
      expect(await store.swap(longest, { length: 'swapped' })).toEqual({ length: 250 })
      expect(await store.add(longest, {})).toBe(false)
      expect(await store.delete(longest)).toBe(true)
    },
  },

  // --- expiry (two cases that wait for a one-second TTL) ---
  {
    title: 'auth state store › a value written with ttlSeconds expires; without ttlSeconds it stays',
    async run({ store, key }) {
      const bySet = key('ttl-set')
      const bySwap = key('ttl-swap')
      const byAdd = key('ttl-add')
      const setAgain = key('ttl-set-again')
      const swappedAgain = key('ttl-swapped-again')
      const noTtl = key('ttl-none')
      const longTtl = key('ttl-long')
      await store.set(bySet, { by: 'set' }, TTL)
      expect(await store.swap(bySwap, { by: 'swap' }, TTL)).toBeNull()
      expect(await store.add(byAdd, { by: 'add' }, TTL)).toBe(true)
      // Written again without ttlSeconds: the value stays (the earlier TTL no longer applies).
      await store.set(setAgain, 1, TTL)
      await store.set(setAgain, 2)
      await store.set(swappedAgain, 1, TTL)
      await store.swap(swappedAgain, 2)
      await store.set(noTtl, { stays: true })
      await store.set(longTtl, { stays: true }, { ttlSeconds: 3600 })
      // Not early: readable right after the write.
      expect(await store.get(bySet)).toEqual({ by: 'set' })
      expect(await store.get(bySwap)).toEqual({ by: 'swap' })
      expect(await store.get(byAdd)).toEqual({ by: 'add' })

      await eventually(async () => {
        expect(await store.get(bySet), 'written by set').toBeNull()
        expect(await store.get(bySwap), 'written by swap').toBeNull()
        expect(await store.get(byAdd), 'written by add').toBeNull()
      }, EXPIRY_WAIT_MS)
      expect(await store.get(setAgain)).toBe(2)
      expect(await store.get(swappedAgain)).toBe(2)
      expect(await store.get(noTtl)).toEqual({ stays: true })
      expect(await store.get(longTtl)).toEqual({ stays: true })
    },
  },
  {
    title: 'auth state store › an expired value is absent to add, swap and delete',
    async run({ store, key }) {
      const forAdd = key('expired-add')
      const forSwap = key('expired-swap')
      const forDelete = key('expired-delete')
      for (const k of [forAdd, forSwap, forDelete]) await store.set(k, { old: true }, TTL)
      await eventually(async () => {
        for (const k of [forAdd, forSwap, forDelete]) expect(await store.get(k), k).toBeNull()
      }, EXPIRY_WAIT_MS)
      expect(await store.add(forAdd, { new: true }), 'add on an expired key').toBe(true)
      expect(await store.get(forAdd)).toEqual({ new: true })
      expect(await store.swap(forSwap, { new: true }), 'swap on an expired key').toBeNull()
      expect(await store.get(forSwap)).toEqual({ new: true })
      expect(await store.delete(forDelete), 'delete of an expired key').toBe(false)
      expect(await store.get(forDelete)).toBeNull()
    },
  },

  // --- swap and add ---
  {
    title: 'auth state store › swap on an absent key returns null and writes the value',
    async run({ store, key }) {
      const k = key('swap-absent')
      expect(await store.swap(k, { code: 'abc' })).toBeNull()
      expect(await store.get(k)).toEqual({ code: 'abc' })
    },
  },
  {
    title: 'auth state store › swap returns the previous value and writes the new one',
    async run({ store, key }) {
      const k = key('swap-present')
      await store.set(k, { step: 1 })
      expect(await store.swap(k, { step: 2 })).toEqual({ step: 1 })
      expect(await store.get(k)).toEqual({ step: 2 })
      expect(await store.swap(k, 'three')).toEqual({ step: 2 })
      expect(await store.swap(k, [4])).toBe('three')
      expect(await store.get(k)).toEqual([4])
    },
  },
  {
    title: 'auth state store › add writes only when the key is absent',
    async run({ store, key }) {
      const k = key('add')
      expect(await store.add(k, { first: true })).toBe(true)
      expect(await store.get(k)).toEqual({ first: true })
      expect(await store.add(k, { second: true })).toBe(false)
      expect(await store.get(k), 'a refused add changes nothing').toEqual({ first: true })
      await store.delete(k)
      expect(await store.add(k, { third: true }), 'add after delete').toBe(true)
      expect(await store.get(k)).toEqual({ third: true })
    },
  },

  // --- concurrency: swap and add are exactly-once ---
  {
    title: `auth state store › ${RACERS} concurrent swaps on one key: exactly one sees the value before them, each value is seen once`,
    async run({ store, key }) {
      const k = key('concurrent-swap')
      await store.set(k, { marker: 'original' })
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.swap(k, { marker: `racer-${index}` })))
      expectOneChain(results, { marker: 'original' }, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent swaps on an absent key: exactly one sees null`,
    async run({ store, key }) {
      const k = key('concurrent-swap-absent')
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.swap(k, { marker: `racer-${index}` })))
      expectOneChain(results, null, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent adds on one key: exactly one returns true`,
    async run({ store, key }) {
      const k = key('concurrent-add')
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.add(k, { marker: `racer-${index}` })))
      expectOneAdd(results, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent swaps on two instances: exactly one sees the value before them, each value is seen once`,
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-swap')
        await store.set(k, { marker: 'original' })
        const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => (index % 2 ? other : store).swap(k, { marker: `racer-${index}` })))
        const final = await other.get(k)
        expect(await store.get(k), 'both instances read the same value').toEqual(final)
        expectOneChain(results, { marker: 'original' }, final)
      } finally {
        await other.dispose?.()
      }
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent adds on two instances: exactly one returns true`,
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-add')
        const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => (index % 2 ? other : store).add(k, { marker: `racer-${index}` })))
        const final = await store.get(k)
        expect(await other.get(k), 'both instances read the same value').toEqual(final)
        expectOneAdd(results, final)
      } finally {
        await other.dispose?.()
      }
    },
  },
  {
    title: 'auth state store › a write on one instance is seen at once by another',
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-read')
        await store.set(k, { v: 1 })
        expect(await other.get(k)).toEqual({ v: 1 })
        expect(await other.swap(k, { v: 2 })).toEqual({ v: 1 })
        expect(await store.get(k)).toEqual({ v: 2 })
        expect(await store.delete(k)).toBe(true)
        expect(await other.get(k)).toBeNull()
        expect(await other.add(k, { v: 3 })).toBe(true)
        expect(await store.add(k, { v: 4 })).toBe(false)
      } finally {
        await other.dispose?.()
      }
    },
  },

  // --- persistence ---
  {
    title: 'auth state store › values survive a new instance on the same storage',
    needs: 'persistent',
    async run({ create, key }) {
      const plain = key('persistent-plain')
      const withTtl = key('persistent-ttl')
      const added = key('persistent-added')
      const first = await create()
      try {
        await first.set(plain, { signingKey: 'k1' })
        await first.set(withTtl, { code: 'abc' }, { ttlSeconds: 3600 })
        expect(await first.add(added, [1, 2])).toBe(true)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        expect(await second.get(plain)).toEqual({ signingKey: 'k1' })
        expect(await second.get(withTtl)).toEqual({ code: 'abc' })
        expect(await second.add(added, 'again')).toBe(false)
        expect(await second.swap(withTtl, { used: true })).toEqual({ code: 'abc' })
        expect(await second.delete(plain)).toBe(true)
      } finally {
        await second.dispose?.()
      }
    },
  },

  // --- input validation: a TypeError, and nothing changed ---
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

// --- internal helpers ---

/** The racer marker in a value written by a concurrency case, or a description of what it is. */
function markerOf(value: unknown): string {
  if (typeof value === 'object' && value !== null && typeof (value as { marker?: unknown }).marker === 'string') return (value as { marker: string }).marker
  return `unexpected ${JSON.stringify(value)}`
}

/**
 * What N concurrent swaps on one key must leave: the swaps happened in SOME order, so exactly one
 * saw `before`, every other saw the marker of another racer (never its own), no value was seen
 * twice, and the key now holds the one marker nobody saw (the last swap's).
 */
function expectOneChain(results: unknown[], before: { marker: string } | null, final: unknown): void {
  const sawBefore = results.filter((result) => (before === null ? result === null : markerOf(result) === before.marker)).length
  expect(sawBefore, `${sawBefore} of ${results.length} swaps saw the value before them (expected exactly 1)`).toBe(1)
  const seen = new Map<string, number>()
  for (const [index, result] of results.entries()) {
    if (before === null ? result === null : markerOf(result) === before.marker) continue
    const marker = markerOf(result)
    expect(marker, `swap ${index} returned ${marker}, expected another racer's marker`).toMatch(/^racer-\d+$/)
    expect(marker, `swap ${index} returned its own value`).not.toBe(`racer-${index}`)
    seen.set(marker, (seen.get(marker) ?? 0) + 1)
  }
  const twice = [...seen].filter(([, count]) => count > 1).map(([marker]) => marker)
  expect(twice, `values returned by more than one swap: ${twice.join(', ')}`).toEqual([])
  const unseen = results.map((_, index) => `racer-${index}`).filter((marker) => !seen.has(marker))
  expect(unseen, 'exactly one racer value is not returned by any swap: the last one').toHaveLength(1)
  expect(markerOf(final), 'the key holds the last swap’s value').toBe(unseen[0])
}

/** What N concurrent adds on one absent key must leave: one true, and the key holds its value. */
function expectOneAdd(results: boolean[], final: unknown): void {
  const winners = results.flatMap((added, index) => (added ? [index] : []))
  expect(winners.length, `${winners.length} of ${results.length} concurrent adds returned true (expected exactly 1)`).toBe(1)
  expect(markerOf(final), 'the key holds the value of the add that returned true').toBe(`racer-${winners[0]}`)
}
