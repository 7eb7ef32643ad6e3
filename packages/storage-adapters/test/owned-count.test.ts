// The atomic count limits of @litho/core (designs per plan, render keys per account) over the
// real meters: concurrent creates on memory, fs and Redis, two Redis meters standing for two
// instances, and accounts that held items before counting began. Redis tests need REDIS_URL
// (default redis://127.0.0.1:6379) and never skip.
import { createApiKey, createDesign, deleteDesign, listApiKeys, revokeApiKey, MAX_API_KEYS } from '@litho/core'
import type { Meter } from '@litho/core/contracts'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fsAccountStore, memoryAccountStore } from '../src/account-store.js'
import { fsDesignStore, memoryDesignStore } from '../src/design-store.js'
import { fsMeter } from '../src/fs.js'
import { memoryMeter } from '../src/memory.js'
import { redisMeter } from '../src/redis.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { base } = setupRedis()
const dir = setupTempDir('litho-owned-count-')
let n = 0

const DOC = { version: 2, width: 100, height: 100, components: [] }
const free = (id: string) => ({ id, plan: 'free' as const })

/** Two meters over one backend (two instances, where the backend is shared). */
const backends: Array<[string, () => [Meter, Meter]]> = [
  ['memory', () => { const m = memoryMeter(); return [m, m] }],
  ['fs', () => { const path = `${dir}/m${++n}`; return [fsMeter({ base: path }), fsMeter({ base: path })] }],
  ['redis', () => { const prefix = `${base}:m${++n}`; return [redisMeter({ url: REDIS_URL, base: prefix }), redisMeter({ url: REDIS_URL, base: prefix })] }],
]

let keyCount = 0
const newKey = () => ({ id: `key_${++keyCount}`, secret: `lk_s${keyCount}`, hash: `sha256:${createHash('sha256').update(`k${keyCount}-${Math.random()}`).digest('base64url')}`, displayPrefix: `lk_${keyCount}` })

describe.each(backends)('owned counts on the %s meter', (_name, meters) => {
  it('owned count › 20 concurrent design creates against a remaining allowance of 5 create exactly 5', async () => {
    const [a, b] = meters()
    // On files, as `litho serve` keeps them: a store read takes real time, which is when check-then-create raced.
    const designs = fsDesignStore({ base: `${dir}/designs${++n}` })
    const user = free(`u_${++n}`)
    for (let i = 0; i < 45; i++) await createDesign({ designs, meter: a }, { account: user, name: `d${i}`, document: DOC })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => createDesign({ designs, meter: i % 2 ? a : b }, { account: user, name: `c${i}`, document: DOC })),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'ERR_TEMPLATE_LIMIT' })
    expect((await designs.listByOwner(user.id, { offset: 0, limit: 1 })).total).toBe(50)
    // A delete makes room for exactly one more.
    const [first] = (await designs.listByOwner(user.id, { offset: 0, limit: 1 })).items
    await deleteDesign({ designs, meter: b }, { account: user, id: first!.id })
    const again = await Promise.allSettled(Array.from({ length: 4 }, () => createDesign({ designs, meter: a }, { account: user, name: 'again', document: DOC })))
    expect(again.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
  })

  it('owned count › 150 concurrent key creates against a limit of 100 make exactly 100, and the list pages to all of them', async () => {
    const [a, b] = meters()
    const accounts = fsAccountStore({ base: `${dir}/accounts${++n}` })
    const user = { id: `u_${++n}` }
    let clock = Date.UTC(2026, 10, 1)
    const services = (meter: Meter) => ({ accounts, meter, clock: { now: () => new Date((clock += 1000)) } })
    const outcomes = await Promise.allSettled(Array.from({ length: 150 }, (_, i) => createApiKey(services(i % 2 ? a : b), { account: user, name: `k${i}`, newKey })))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(MAX_API_KEYS)
    expect(await accounts.listKeys(user.id, { limit: 100, offset: 100 })).toEqual([])
    const page1 = await listApiKeys(services(a), { account: user, page: 1, limit: 30 })
    const page4 = await listApiKeys(services(a), { account: user, page: 4, limit: 30 })
    expect(page1).toMatchObject({ page: 1, limit: 30, totalPages: 4, hasNextPage: true })
    expect(page4).toMatchObject({ page: 4, totalPages: 4, hasNextPage: false })
    expect(page4.docs).toHaveLength(10)
  })

  it('owned count › an account that held items before counting began starts from them, and deleting one of them makes room', async () => {
    const [a, b] = meters()
    const designs = memoryDesignStore()
    const user = free(`u_${++n}`)
    // 49 designs written straight to the store, as before counting existed.
    const ids: string[] = []
    for (let i = 0; i < 49; i++) {
      const id = `d_old${i}`
      ids.push(id)
      await designs.create({ id, ownerId: user.id, name: `old${i}`, renderCode: `rendercode${n}x${String(i).padStart(4, "0")}`, design: null, draft: DOC as never, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), updatedAt: new Date().toISOString() })
    }
    // Both instances seed at once: exactly one seed counts.
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => createDesign({ designs, meter: i % 2 ? a : b }, { account: user, name: `n${i}`, document: DOC })))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    // Deleting a design that predates counting gives its unit back.
    await deleteDesign({ designs, meter: a }, { account: user, id: ids[0]! })
    await deleteDesign({ designs, meter: b }, { account: user, id: ids[1]! })
    const after = await Promise.allSettled(Array.from({ length: 5 }, () => createDesign({ designs, meter: b }, { account: user, name: 'after', document: DOC })))
    expect(after.filter((o) => o.status === 'fulfilled')).toHaveLength(2)
    expect((await designs.listByOwner(user.id, { offset: 0, limit: 1 })).total).toBe(50)
  })

  it('owned count › a create whose store write fails gives its unit back', async () => {
    const [a] = meters()
    const accounts = memoryAccountStore()
    const user = { id: `u_${++n}` }
    const failing = { ...accounts, listKeys: accounts.listKeys.bind(accounts), createKey: async () => { throw new Error('store down') } }
    await expect(createApiKey({ accounts: failing, meter: a }, { account: user, newKey })).rejects.toThrow('store down')
    await createApiKey({ accounts, meter: a }, { account: user, newKey })
    expect((await listApiKeys({ accounts, meter: a }, { account: user, limit: 10 })).totalPages).toBe(1)
    const [key] = await accounts.listKeys(user.id, { limit: 1 })
    await revokeApiKey({ accounts, meter: a }, { account: user, id: key!.id })
    expect((await listApiKeys({ accounts, meter: a }, { account: user, limit: 10 })).docs).toEqual([])
  })
})
