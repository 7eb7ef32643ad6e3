// Signed render links over HTTP (docs/signed-render-links.md): a GET render authenticated by its
// signature instead of a render key, metered to the key's owner, cacheable by a CDN; refused with
// a reason when forged, expired, too long-lived or its key revoked; the link-secret rotation route.
import { createRenderer, signRenderUrl, type Renderer } from '@litho/core'
import { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { createLithoApp } from '../src/index.js'
import { RENDER_URL, WINDOW, createHarness, expectError, sniff, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

const MASTER_KEY = 'link-master-key-0123456789-abcdefghijklmnopqrstuvwxyz'
const DAY = 86_400

let h: Harness
let renders = 0
const { accessToken, api } = oauthHelpers(() => h)
let user: UserRecord
let code: string
let key: { _id: string; key: string; linkSecret: string }

beforeAll(async () => {
  const inner = createRenderer()
  const renderer: Renderer = { ...inner, render: (...args: Parameters<Renderer['render']>) => (renders++, inner.render(...args)) }
  h = await createHarness({ withOAuth: {}, renderer, renderLinks: { masterKey: MASTER_KEY, maxSeconds: 30 * DAY } })
  user = await h.createUser('pro', PASSWORD)
  code = await h.createDesign(user)
  const token = await accessToken(user)
  key = (await (await api('/settings/api-keys', token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"site"}' })).json()) as typeof key
})
afterAll(() => h.close())

const nowSeconds = () => Math.floor(h.clock.now().getTime() / 1000)
const usage = () => h.meter.usage({ subject: user.id, window: WINDOW })
/** A signed link of the harness's design, as a path and query. */
async function link(params: Record<string, string> = { format: 'png' }, options: { expiresAt?: number | null; secret?: string; keyId?: string } = {}): Promise<string> {
  const expiresAt = options.expiresAt === undefined ? nowSeconds() + 3600 : options.expiresAt
  const url = await signRenderUrl({ baseUrl: RENDER_URL, designId: code, params, keyId: options.keyId ?? key._id, secret: options.secret ?? key.linkSecret, ...(expiresAt === null ? {} : { expiresAt }) })
  return url.slice(RENDER_URL.length)
}

describe('signed render links › serving', () => {
  it('render links › a key created over HTTP comes with its link secret', () => {
    expect(key.linkSecret).toMatch(/^lks_[A-Za-z0-9_-]{43}$/)
  })

  it('render links › a signed link renders without a key, metered to the key’s owner, cacheable until exp', async () => {
    const before = await usage()
    const response = await h.fetch(await link({ format: 'png', 'title.text': 'Signed' }))
    expect(response.status).toBe(200)
    expect(sniff(new Uint8Array(await response.arrayBuffer()))).toBe('png')
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600, immutable')
    expect(response.headers.get('x-litho-ignored-overrides')).toBeNull()
    expect(await usage()).toBe(before + 1)
    // The ETag lets a CDN revalidate; the 304 keeps the link's public Cache-Control, and is metered.
    const etag = response.headers.get('etag')
    expect(etag).toMatch(/^"[^"]+"$/)
    const again = await h.fetch(await link({ format: 'png', 'title.text': 'Signed' }), { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    expect(again.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/)
    expect(await usage()).toBe(before + 2)
  })

  it('render links › a link without exp is cached for a day, not forever', async () => {
    const response = await h.fetch(await link({ format: 'png' }, { expiresAt: null }))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
  })

  it('render links › without sig, exp and kid stay ordinary override names of a keyed render', async () => {
    const secret = await h.createKey(user)
    const response = await h.fetch(`/v1/${code}?format=png&exp=1&kid=x`, { headers: { 'dma-api-key': secret } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-ignored-overrides')!.split(',').sort()).toEqual(['exp', 'kid'])
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
  })

  it('render links › the link works under a mount prefix, where it is signed with the prefix in its URL', async () => {
    const outer = new H3().mount('/litho', createLithoApp({ designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, signer: h.signer, clock: h.clock, renderer: createRenderer(), renderUrl: `${RENDER_URL}/litho`, renderLinks: { masterKey: MASTER_KEY } }))
    const url = await signRenderUrl({ url: `${RENDER_URL}/litho/v1/${code}?format=png`, keyId: key._id, secret: key.linkSecret, expiresAt: nowSeconds() + 60 })
    const response = await outer.fetch(new Request(url))
    expect(response.status).toBe(200)
  })
})

describe('signed render links › refusals', () => {
  it('render links › a forged signature costs no quota and no render', async () => {
    const before = { usage: await usage(), renders, lastUsedAt: (await h.accounts.getKey(key._id))!.lastUsedAt }
    const forged = (await link({ format: 'png', 'title.text': 'Hello' })).replace('Hello', 'Goodbye')
    const body = await expectError(await h.fetch(forged), 403, /signature does not match/)
    expect(body).toMatchObject({ code: 'ERR_BAD_SIGNATURE', reason: 'bad_signature' })
    expect({ usage: await usage(), renders, lastUsedAt: (await h.accounts.getKey(key._id))!.lastUsedAt }).toEqual(before)
  })

  it('render links › a signature made with another secret is refused, and the refusal is not cached', async () => {
    const response = await h.fetch(await link({ format: 'png' }, { secret: `lks_${'x1y2z3'.repeat(8)}` }))
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await expectError(response, 403, /signature/)).toMatchObject({ reason: 'bad_signature' })
  })

  it('render links › an expired link and one that lives too long are refused with their reason, without a render', async () => {
    const count = renders
    expect(await expectError(await h.fetch(await link({}, { expiresAt: nowSeconds() - 1 })), 403, /expired/)).toMatchObject({ reason: 'expired' })
    expect(await expectError(await h.fetch(await link({}, { expiresAt: nowSeconds() + 31 * DAY })), 403, /exp is more than/)).toMatchObject({ reason: 'exp_too_far' })
    expect(renders).toBe(count)
  })

  it.each([
    ['sig', (path: string) => path.replace(/sig=[^&]+/, 'sig=short')],
    ['exp', (path: string) => path.replace(/exp=\d+/, 'exp=tomorrow')],
    ['kid', (path: string) => path.replace(/kid=[^&]+/, 'kid=a%2Fb')],
  ])('render links › a malformed %s is a 400 naming it', async (field, edit) => {
    const body = await expectError(await h.fetch(edit(await link())), 400, new RegExp(`^${field}: `))
    expect(body.issues).toEqual([expect.objectContaining({ path: field })])
  })

  it('render links › a link that also carries a render key is a 400', async () => {
    const secret = await h.createKey(user)
    await expectError(await h.fetch(`${await link()}&key=${secret}`), 400, /^key: a signed link carries no render key/)
    await expectError(await h.fetch(await link(), { headers: { 'dma-api-key': secret } }), 400, /^dma-api-key: /)
  })

  it('render links › a link cannot ask for a stored delivery', async () => {
    await expectError(await h.fetch(await link({ delivery: 'hosted' })), 400, /^delivery: a signed link streams the image/)
  })

  it('render links › a key made before signed links (no salt) cannot sign until its link secret is rotated', async () => {
    await h.createKey(user)
    const [old] = (await h.accounts.listKeys(user.id, { limit: 100 })).filter((k) => k.linkSalt === undefined)
    const body = await expectError(await h.fetch(await link({}, { keyId: old!.id, secret: `lks_${'a1b2c3'.repeat(8)}` })), 403, /no link secret yet/)
    expect(body).toMatchObject({ reason: 'no_link_secret' })
  })

  it('render links › an unknown kid is refused as unknown_key', async () => {
    expect(await expectError(await h.fetch(await link({}, { keyId: 'key_nope' })), 403, /no render key has this kid/)).toMatchObject({ reason: 'unknown_key' })
  })
})

describe('POST /settings/api-keys/:id/link-secret', () => {
  it('render links › rotation returns a new secret once; links of the old one stop working, new ones work', async () => {
    const token = await accessToken(user)
    const created = (await (await api('/settings/api-keys', token, { method: 'POST' })).json()) as typeof key
    const old = await link({ format: 'png' }, { keyId: created._id, secret: created.linkSecret })
    expect((await h.fetch(old)).status).toBe(200)
    const response = await api(`/settings/api-keys/${created._id}/link-secret`, token, { method: 'POST' })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toMatch(/no-store/)
    const rotated = (await response.json()) as { success: true; _id: string; linkSecret: string }
    expect(rotated).toEqual({ success: true, _id: created._id, linkSecret: expect.stringMatching(/^lks_/) })
    expect(rotated.linkSecret).not.toBe(created.linkSecret)
    expect(await expectError(await h.fetch(old), 403, /signature/)).toMatchObject({ reason: 'bad_signature' })
    expect((await h.fetch(await link({ format: 'png' }, { keyId: created._id, secret: rotated.linkSecret }))).status).toBe(200)
  })

  it('render links › revoking the key revokes every link', async () => {
    const token = await accessToken(user)
    const created = (await (await api('/settings/api-keys', token, { method: 'POST' })).json()) as typeof key
    const signed = await link({ format: 'png' }, { keyId: created._id, secret: created.linkSecret })
    expect((await api(`/settings/api-keys/${created._id}`, token, { method: 'DELETE' })).status).toBe(200)
    expect(await expectError(await h.fetch(signed), 403, /revoked/)).toMatchObject({ reason: 'unknown_key' })
  })

  it('render links › another account’s key is a 404, and read scope is not enough', async () => {
    const other = await h.createUser('pro', PASSWORD)
    await expectError(await api(`/settings/api-keys/${key._id}/link-secret`, await accessToken(other), { method: 'POST' }), 404, /no API key has the id/)
    expect((await api(`/settings/api-keys/${key._id}/link-secret`, await accessToken(user, { scope: 'read' }), { method: 'POST' })).status).toBe(403)
  })
})

describe('signed render links › a server without a master key', () => {
  it('render links › refuses links as links_disabled, gives new keys no link secret, and mounts no rotation route', async () => {
    const plain = await createHarness({ withOAuth: {} })
    try {
      const owner = await plain.createUser('pro', PASSWORD)
      const design = await plain.createDesign(owner)
      const helpers = oauthHelpers(() => plain)
      const token = await helpers.accessToken(owner)
      const created = (await (await helpers.api('/settings/api-keys', token, { method: 'POST' })).json()) as Record<string, unknown>
      expect(created).not.toHaveProperty('linkSecret')
      const url = await signRenderUrl({ baseUrl: RENDER_URL, designId: design, keyId: String(created._id), secret: key.linkSecret })
      expect(await expectError(await plain.fetch(url.slice(RENDER_URL.length)), 403, /not enabled/)).toMatchObject({ reason: 'links_disabled' })
      expect((await helpers.api(`/settings/api-keys/${String(created._id)}/link-secret`, token, { method: 'POST' })).status).toBe(404)
    } finally {
      await plain.close()
    }
  })
})
