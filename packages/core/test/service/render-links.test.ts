// Checking signed render links on the server, and rotating link secrets (docs/signed-render-links.md).
import { memoryAccountStore } from '@litho/storage-adapters/account-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { describe, expect, it, vi } from 'vitest'
import type { AccountStore } from '../../src/contracts/index.js'
import { createApiKey, rotateRenderLinkSecret, signRenderUrlSync, verifyRenderLink, type RenderLinkSettings } from '../../src/index.js'
import { fakeKey, rejection } from './helpers.js'

const NOW = Date.UTC(2026, 10, 26, 12)
const clock = { now: () => new Date(NOW) }
const renderLinks: RenderLinkSettings = { masterKey: 'Q2hhbmdlLW1lLTAxMjM0NTY3ODlhYmNkZWZnaGlqa2xtbm9w', maxSeconds: 30 * 86_400 }

/** An account with one key that signs links; the store's calls are counted. */
async function setup() {
  const store = memoryAccountStore()
  const calls: string[] = []
  const accounts = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name)
      return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(name)), value.apply(target, args)) : value
    },
  }) as AccountStore
  const now = new Date(NOW).toISOString()
  await store.createUser({ id: 'u_ann', email: 'ann@example.com', passwordHash: 'x', plan: 'pro', createdAt: now, updatedAt: now })
  const created = await createApiKey({ accounts: store, meter: memoryMeter(), clock, renderLinks }, { account: { id: 'u_ann' }, name: 'site', newKey: fakeKey })
  calls.length = 0
  const services = { accounts, renderLinks, clock }
  const sign = (params: Record<string, string> = {}, expiresAt: number | null = NOW / 1000 + 3600, secret = created.linkSecret!) =>
    new URL(signRenderUrlSync({ baseUrl: 'https://r.example', designId: 'card', params, keyId: created._id, secret, ...(expiresAt === null ? {} : { expiresAt }) }))
  const verify = (url: URL, hasKeyHeader = false) => verifyRenderLink(services, { designId: decodeURIComponent(url.pathname.split('/').pop()!), query: url.searchParams, hasKeyHeader })
  return { store, calls, created, sign, verify, services }
}

describe('verifyRenderLink', () => {
  it('render links › a link signed with the key’s link secret checks out, for its owner, without its link parameters', async () => {
    const { created, sign, verify } = await setup()
    expect(created.linkSecret).toMatch(/^lks_/)
    const link = await verify(sign({ 'title.text': 'Hi', format: 'png' }))
    expect(link.account).toEqual({ id: 'u_ann', plan: 'pro' })
    expect(link.key.id).toBe(created._id)
    expect(link.expiresAt).toEqual(new Date(NOW + 3600_000))
    expect([...link.overrides]).toEqual([['format', 'png'], ['title.text', 'Hi']])
  })

  it('render links › a forged signature is refused after one read of the key and its owner, and writes nothing', async () => {
    const { sign, verify, calls } = await setup()
    const url = sign({ 'title.text': 'Hi' })
    url.searchParams.set('title.text', 'Free money')
    const error = await rejection(verify(url))
    expect(error).toMatchObject({ code: 'ERR_BAD_SIGNATURE', details: { reason: 'bad_signature' } })
    expect(calls).toEqual(['getKey', 'getUser'])
  })

  it('render links › a link in use writes lastUsedAt at most once a minute, not once per view', async () => {
    const { sign, verify, calls, store, created } = await setup()
    const url = sign()
    await verify(url)
    // The write is not awaited by the check (best effort): wait for it to land.
    await vi.waitFor(async () => expect((await store.getKey(created._id))!.lastUsedAt).not.toBeNull())
    await verify(url)
    await verify(url)
    expect(calls.filter((name) => name === 'markKeyUsed')).toHaveLength(1)
  })

  it('render links › a malformed link is refused before any read, naming each field', async () => {
    const { verify, calls } = await setup()
    const error = await rejection(verify(new URL('https://r.example/v1/card?exp=soon&kid=a/b&sig=short')))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues.map((issue) => issue.path)).toEqual(['exp', 'kid', 'sig'])
    expect(calls).toEqual([])
  })

  it('render links › expired and too distant links are refused before any read', async () => {
    const { sign, verify, calls } = await setup()
    expect(await rejection(verify(sign({}, NOW / 1000 - 1)))).toMatchObject({ code: 'ERR_BAD_SIGNATURE', details: { reason: 'expired' } })
    expect(await rejection(verify(sign({}, NOW / 1000 + 31 * 86_400)))).toMatchObject({ details: { reason: 'exp_too_far' } })
    expect(calls).toEqual([])
    // exp equal to now is still valid; no exp at all is valid too.
    await expect(verify(sign({}, NOW / 1000))).resolves.toMatchObject({ expiresAt: new Date(NOW) })
    await expect(verify(sign({}, null))).resolves.toMatchObject({ expiresAt: null })
  })

  it('render links › a link must not carry a render key as well', async () => {
    const { sign, verify } = await setup()
    const url = sign()
    url.searchParams.set('key', 'lk_x')
    expect((await rejection(verify(url))).issues[0]).toMatchObject({ path: 'key' })
    expect((await rejection(verify(sign(), true))).issues[0]).toMatchObject({ path: 'dma-api-key' })
  })

  it('render links › a duplicated exp, kid or sig is a 400, not a pick', async () => {
    const { sign, verify } = await setup()
    const url = sign()
    url.searchParams.append('exp', url.searchParams.get('exp')!)
    expect((await rejection(verify(url))).issues).toEqual([{ path: 'exp', message: 'given 2 times; a signed link has one' }])
  })

  it('render links › revoked, deactivated and keys without a link secret are refused with their reason', async () => {
    const { store, created, sign, verify } = await setup()
    await store.setKeyActive(created._id, false)
    expect(await rejection(verify(sign()))).toMatchObject({ details: { reason: 'key_inactive' } })
    await store.deleteKey(created._id)
    expect(await rejection(verify(sign()))).toMatchObject({ details: { reason: 'unknown_key' } })
    const old = fakeKey()
    await store.createKey({ id: old.id, userId: 'u_ann', name: 'old', hash: old.hash, prefix: 'lk_', active: true, createdAt: new Date(NOW).toISOString(), lastUsedAt: null })
    const url = new URL(signRenderUrlSync({ baseUrl: 'https://r.example', designId: 'card', keyId: old.id, secret: 'lks_anything-at-all-0123456789abcdefgh' }))
    expect(await rejection(verify(url))).toMatchObject({ details: { reason: 'no_link_secret' } })
  })

  it('render links › without a master key every link is refused as links_disabled', async () => {
    const { sign, services } = await setup()
    const url = sign()
    const error = await rejection(verifyRenderLink({ ...services, renderLinks: undefined }, { designId: 'card', query: url.searchParams, hasKeyHeader: false }))
    expect(error).toMatchObject({ details: { reason: 'links_disabled' } })
  })
})

describe('rotateRenderLinkSecret', () => {
  it('render links › rotating gives a new secret; links signed with the old one stop working', async () => {
    const { store, created, sign, verify } = await setup()
    const before = sign()
    const { linkSecret } = await rotateRenderLinkSecret({ accounts: store, renderLinks }, { account: { id: 'u_ann' }, id: created._id })
    expect(linkSecret).not.toBe(created.linkSecret)
    expect(await rejection(verify(before))).toMatchObject({ details: { reason: 'bad_signature' } })
    await expect(verify(sign({}, NOW / 1000 + 60, linkSecret))).resolves.toMatchObject({ account: { id: 'u_ann' } })
  })

  it('render links › another account’s key is not found', async () => {
    const { store, created } = await setup()
    expect(await rejection(rotateRenderLinkSecret({ accounts: store, renderLinks }, { account: { id: 'u_bob' }, id: created._id }))).toMatchObject({ code: 'ERR_KEY_NOT_FOUND' })
  })

  it('render links › a key created without a master key has no link secret', async () => {
    const created = await createApiKey({ accounts: memoryAccountStore(), meter: memoryMeter(), clock }, { account: { id: 'u_ann' }, newKey: fakeKey })
    expect(created).not.toHaveProperty('linkSecret')
  })
})
