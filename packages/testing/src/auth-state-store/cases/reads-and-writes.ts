/**
 * Auth state store cases: reads and writes.
 *
 * @module auth-state-store/cases/reads-and-writes
 */
import { expect } from 'vitest'
import { VALUES, type AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: reads and writes. */
export const readsAndWritesCases: readonly AuthStateStoreCase[] = [
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
]
