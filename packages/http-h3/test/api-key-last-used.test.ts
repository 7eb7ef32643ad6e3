// lastUsedAt of GET /settings/api-keys: set by a render with the key, written at most once a minute
// per key (not a store write per render), and shown approximate to the console.
import type { UserRecord } from '@litho/core/contracts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHarness, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)
let user: UserRecord
let read: string
let code: string

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  read = await accessToken(user, { scope: 'read' })
  code = await h.createDesign(user)
})
afterAll(() => h.close())

const lastUsedAt = async () => ((await (await api('/settings/api-keys', read)).json()) as { docs: Array<{ lastUsedAt: string | null }> }).docs[0]!.lastUsedAt
const render = async (key: string) => expect((await h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })).status).toBe(200)

describe('GET /settings/api-keys › lastUsedAt', () => {
  it('is null until a render uses the key, then its time; a burst of renders within a minute writes it once (no store write per render)', async () => {
    const key = await h.createKey(user)
    expect(await lastUsedAt()).toBeNull()
    const writes = vi.spyOn(h.accounts, 'markKeyUsed')
    const first = h.clock.now().toISOString()
    await render(key)
    await vi.waitFor(async () => expect(await lastUsedAt()).toBe(first))
    for (let i = 0; i < 20; i++) {
      h.clock.advance(2_000)
      await render(key)
    }
    // 40 s later: still the first render's time, and one write for 21 renders.
    expect(await lastUsedAt()).toBe(first)
    expect(writes).toHaveBeenCalledTimes(1)
    // A minute after the last write, the next render writes again.
    h.clock.advance(21_000)
    const later = h.clock.now().toISOString()
    await render(key)
    await vi.waitFor(async () => expect(await lastUsedAt()).toBe(later))
    expect(writes).toHaveBeenCalledTimes(2)
    writes.mockRestore()
  })
})
