// The auth-state suite's concurrency cases catch a store that reads and then writes (the
// mistake the port forbids), and the runner refuses skips that name no case or give no reason.
import type { AuthStateStore } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { describe, expect, it } from 'vitest'
import { runAuthStateStoreConformance } from '../src/auth-state-store/index.js'
import { authStateStoreCases, createAuthStateStoreCaseContext } from '../src/auth-state-store/auth-state-store-cases.js'
import { latencyStorage } from './_latency-storage.js'

describe('auth state store conformance › control', () => {
  const caseTitled = (pattern: RegExp) => {
    const found = authStateStoreCases.filter((c) => pattern.test(c.title))
    if (found.length !== 1) throw new Error(`expected one case matching ${pattern}, found ${found.length}`)
    return found[0]!
  }
  const context = () => {
    const store = naiveStore(latencyStorage())
    return createAuthStateStoreCaseContext(store, () => store)
  }

  it('the concurrent swap case fails for a store that reads, then writes', async () => {
    await expect(caseTitled(/concurrent swaps on one key/).run(context())).rejects.toThrow(/swaps saw the value before them/)
  })

  it('the concurrent swap case on an absent key fails for a store that reads, then writes', async () => {
    await expect(caseTitled(/concurrent swaps on an absent key/).run(context())).rejects.toThrow(/swaps saw the value before them/)
  })

  it('the concurrent add case fails for a store that checks, then writes', async () => {
    await expect(caseTitled(/concurrent adds on one key/).run(context())).rejects.toThrow(/concurrent adds returned true/)
  })

  it('runAuthStateStoreConformance refuses to skip a case that does not exist, or without a reason', () => {
    expect(() => runAuthStateStoreConformance({ name: 'x', create: () => naiveStore(latencyStorage()), skip: { 'auth state store › no such case': 'typo' } })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }),
    )
    const title = authStateStoreCases[0]!.title
    expect(() => runAuthStateStoreConformance({ name: 'x', create: () => naiveStore(latencyStorage()), skip: { [title]: ' ' } })).toThrow(/Expected a reason/)
  })
})

/** WRONG on purpose: swap and add read, then write, with awaits in between. No TTL, no validation. */
function naiveStore(storage: Storage): AuthStateStore {
  const path = (key: string) => encodeURIComponent(key).replace(/\./g, '%2E')
  return {
    name: 'naive',
    capabilities: { persistent: false, shared: false },
    get: async (key) => (await storage.getItem(path(key))) ?? null,
    set: async (key, value) => storage.setItem(path(key), value as never),
    async swap(key, value) {
      const previous = (await storage.getItem(path(key))) ?? null
      await storage.setItem(path(key), value as never)
      return previous
    },
    async add(key, value) {
      if (await storage.hasItem(path(key))) return false
      await storage.setItem(path(key), value as never)
      return true
    },
    async delete(key) {
      const had = await storage.hasItem(path(key))
      await storage.removeItem(path(key))
      return had
    },
  }
}
