// The password pool: verifies like verifyPassword, on threads of its own, a bounded number at
// once, and refuses at once (PasswordHashingBusyError with a Retry-After) beyond its queue.
import { afterAll, describe, expect, it } from 'vitest'
import { PasswordHashingBusyError, createPasswordPool, hashPassword } from '../src/index.js'

const FAST = { N: 2 ** 10, r: 8, p: 1 }
const pools: Array<ReturnType<typeof createPasswordPool>> = []
afterAll(() => Promise.all(pools.map((p) => p.close())))
const pool = (options?: Parameters<typeof createPasswordPool>[0]) => {
  const created = createPasswordPool(options)
  pools.push(created)
  return created
}

describe('password pool', () => {
  it('verifies a password and nothing else, and malformed hashes are false', async () => {
    const p = pool()
    const stored = await hashPassword('correct horse battery staple', FAST)
    expect(await p.verify('correct horse battery staple', stored)).toBe(true)
    expect(await p.verify('cafe\u0301', await hashPassword('caf\u00e9', FAST))).toBe(true)
    for (const wrong of ['correct horse battery stapl', '', null, 42, 'x'.repeat(2000)]) expect(await p.verify(wrong, stored), String(wrong).slice(0, 20)).toBe(false)
    expect(await p.verify('pw', 'plain')).toBe(false)
    expect(await p.verify('correct horse battery staple', stored.replace('N=1024', 'N=1048576000'))).toBe(false)
  })

  it('a burst of 30 verifications: 1 hashing + 4 queued are checked, the rest refused at once with a Retry-After', async () => {
    const p = pool({ threads: 1, maxQueue: 4 })
    // Slow enough that the burst arrives while the first one runs.
    const stored = await hashPassword('pw', { N: 2 ** 15, r: 8, p: 1 })
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => p.verify('wrong', stored)))
    const done = outcomes.filter((o) => o.status === 'fulfilled')
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
    expect(done).toHaveLength(5)
    expect(refused).toHaveLength(25)
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(PasswordHashingBusyError)
      expect((r.reason as PasswordHashingBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    }
    // Once the queue drains, the pool answers again.
    expect(p.retryAfter!()).toBeUndefined()
    expect(await p.verify('pw', stored)).toBe(true)
    // While full, it says so up front, so a caller can refuse before any other work.
    const running = Array.from({ length: 5 }, () => p.verify('wrong', stored))
    expect(p.retryAfter!()).toBeGreaterThanOrEqual(1)
    await Promise.all(running)
    expect(p.retryAfter!()).toBeUndefined()
  })

  it('checks its options', () => {
    expect(() => createPasswordPool({ threads: 0 })).toThrow(/threads/)
    expect(() => createPasswordPool({ maxQueue: -1 })).toThrow(/maxQueue/)
  })
})
