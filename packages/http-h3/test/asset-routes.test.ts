// The asset library over HTTP and MCP with real access tokens: uploads (raw and multipart) at the
// 10 MB limit from both sides, the type read from the bytes, unsafe SVGs, the storage quota,
// another account's asset (get, delete, render), delete refused while a published design draws
// it, a render with asset: matching the same image as a data URI, and MCP uploads.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AssetResourceSchema, MAX_ASSET_BYTES, PaginatedAssetsSchema, parsePlanTable, storageUsage, type AssetResource } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { memoryAssetStore } from '@litho/storage-adapters/asset-store'
import { compareImages } from '@litho/testing'
import { jpegOfSize, noisyPng, pngBomb, randomPng, svg } from '../../core/test/assets/_images.js'
import { createHarness, expectError, sniff, type Harness } from './_harness.js'
import { MCP_URL, connectMcp } from './_mcp.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)
const plans = parsePlanTable({ pro: { renders: 10_000, templates: null, storageBytes: null }, tiny: { renders: 100, templates: null, storageBytes: 30_000 } })
let user: UserRecord
let other: UserRecord
let write: string
let read: string
let othersWrite: string
let image: Server
let imageUrl: string
let photo: Buffer

beforeAll(async () => {
  h = await createHarness({ withOAuth: {}, plans, assets: memoryAssetStore(), network: { allowHttp: true, allowNetworks: ['127.0.0.0/8'] } })
  user = await h.createUser('pro', PASSWORD)
  other = await h.createUser('pro', PASSWORD)
  write = await accessToken(user)
  read = await accessToken(user, { scope: 'read' })
  othersWrite = await accessToken(other)
  photo = await noisyPng(90, 60)
  image = createServer((request, response) => {
    if (request.url === '/photo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(photo)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => image.listen(0, '127.0.0.1', resolve))
  imageUrl = `http://127.0.0.1:${(image.address() as AddressInfo).port}/photo.png`
}, 60_000)
afterAll(async () => {
  image?.close()
  await h.close()
})

const upload = (bytes: Uint8Array, token = write, query = '?name=photo.png', type = 'image/png') => api(`/assets${query}`, token, { method: 'POST', headers: { 'content-type': type }, body: bytes })
const uploadForm = (bytes: Uint8Array, token = write, name = 'form.png') => {
  const form = new FormData()
  form.set('file', new File([bytes], name, { type: 'image/png' }))
  return api('/assets', token, { method: 'POST', body: form })
}
const created = async (response: Response): Promise<AssetResource> => {
  expect(response.status, await response.clone().text()).toBe(201)
  const asset = (await response.json()) as AssetResource
  expect(AssetResourceSchema.parse(asset)).toEqual(asset)
  return asset
}

describe('POST /assets', () => {
  it('stores a raw body with its sniffed type and size, and the ref a design uses; GET returns it, /content its bytes', async () => {
    const asset = await created(await upload(photo, write, '?name=photo.png', 'application/octet-stream'))
    expect(asset).toMatchObject({ name: 'photo.png', contentType: 'image/png', width: 90, height: 60, bytes: photo.length, ref: `asset:${asset.id}` })
    expect(await (await api(`/assets/${asset.id}`, read)).json()).toEqual(asset)
    const content = await api(`/assets/${asset.id}/content`, read)
    expect(content.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await content.arrayBuffer()).equals(photo)).toBe(true)
  })

  it('stores the file field of multipart/form-data (parsed by Request.formData), named after the part', async () => {
    const asset = await created(await uploadForm(photo))
    expect(asset).toMatchObject({ name: 'form.png', width: 90, bytes: photo.length })
    const missing = new FormData()
    missing.set('other', 'x')
    const body = await expectError(await api('/assets', write, { method: 'POST', body: missing }), 400, /file: expected a file field named "file"/)
    expect(body.code).toBe('ERR_INVALID_REQUEST')
  })

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte, raw (stopped while reading) and multipart (413)', async () => {
    const exact = await jpegOfSize(MAX_ASSET_BYTES)
    expect((await created(await upload(exact, write, '?name=big.jpg'))).bytes).toBe(MAX_ASSET_BYTES)
    const over = await jpegOfSize(MAX_ASSET_BYTES + 1)
    expect((await expectError(await upload(over), 413, /body/)).code).toBe('ERR_BODY_TOO_LARGE')
    expect((await expectError(await uploadForm(over), 413, /more than the limit of 10485760 bytes/)).code).toBe('ERR_ASSET_TOO_LARGE')
    expect((await created(await uploadForm(exact))).bytes).toBe(MAX_ASSET_BYTES)
  }, 30_000)

  it('reads the type from the bytes: HTML sent as image/png is refused (422 naming the field and what was found)', async () => {
    const body = await expectError(await upload(Buffer.from('<html><script>alert(1)</script></html>')), 422, /^file: is HTML, not a PNG, JPEG, WebP, GIF or SVG image/)
    expect(body.code).toBe('ERR_ASSET_INVALID')
  })

  it('refuses an SVG with a script (422 unsafe_svg) and a decompression bomb (422 too many pixels)', async () => {
    await expectError(await upload(svg('<script>alert(1)</script>'), write, '', 'image/svg+xml'), 422, /^file: is an SVG with a <script> element/)
    await expectError(await upload(pngBomb()), 422, /^file: is 100000×100000 pixels, more than the limit of 40000000 pixels/)
    expect((await created(await upload(svg(), write, '?name=ok.svg', 'image/svg+xml'))).contentType).toBe('image/svg+xml')
  })

  it("counts the asset's bytes against the plan's storage, refuses past it (403 ERR_STORAGE_QUOTA) and gives them back on delete", async () => {
    const small = await h.createUser('tiny' as never, PASSWORD)
    const token = await accessToken(small)
    const first = await created(await upload(photo, token))
    expect(await storageUsage(h.meter, { id: small.id, plan: 'tiny' }, plans)).toEqual({ usedBytes: photo.length, limitBytes: 30_000 })
    const big = await randomPng(100, 100)
    expect(big.length + photo.length).toBeGreaterThan(30_000)
    expect((await expectError(await upload(big, token), 403, /storage of the tiny plan/)).code).toBe('ERR_STORAGE_QUOTA')
    expect((await api(`/assets/${first.id}`, token, { method: 'DELETE' })).status).toBe(200)
    expect((await storageUsage(h.meter, { id: small.id }, plans)).usedBytes).toBe(0)
  })

  it('needs the write scope', async () => {
    expect((await upload(photo, read)).status).toBe(403)
  })
})

describe('GET /assets', () => {
  it('pages like the design list, newest first, only your own', async () => {
    const mine = await created(await upload(photo, write, '?name=listed.png'))
    const page = (await (await api('/assets?$limit=1', read)).json()) as { docs: AssetResource[]; totalDocs: number; hasNextPage: boolean; limit: number }
    expect(PaginatedAssetsSchema.parse(page)).toEqual(page)
    expect(page).toMatchObject({ limit: 1, hasNextPage: true })
    expect(page.docs).toHaveLength(1)
    const all = (await (await api('/assets?$limit=100', read)).json()) as { docs: AssetResource[] }
    expect(all.docs.map((a) => a.id)).toContain(mine.id)
    const theirs = (await (await api('/assets', othersWrite)).json()) as { docs: AssetResource[] }
    expect(theirs.docs.map((a) => a.id)).not.toContain(mine.id)
    await expectError(await api('/assets?$limit=101', read), 400, /\$limit/)
  })
})

describe("another account's asset", () => {
  it('is not found by get, content or delete (404), and a render of their design that names it fails naming the field', async () => {
    const asset = await created(await upload(photo))
    for (const path of [`/assets/${asset.id}`, `/assets/${asset.id}/content`]) expect((await expectError(await api(path, othersWrite), 404, /no asset of this account/)).code).toBe('ERR_ASSET_NOT_FOUND')
    await expectError(await api(`/assets/${asset.id}`, othersWrite, { method: 'DELETE' }), 404, /no asset of this account/)
    const code = await h.createDesign(other, { version: 2, width: 100, height: 80, components: [{ type: 'image', key: 'photo', width: 100, height: 80, src: asset.ref }] })
    const key = await h.createKey(other)
    const body = await expectError(await h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } }), 404, /^photo\.src: no asset of this account has the id/)
    expect(body.code).toBe('ERR_ASSET_NOT_FOUND')
    // Nor through an override of a design of their own.
    const own = await h.createDesign(other, { version: 2, width: 100, height: 80, components: [{ type: 'image', key: 'photo', width: 100, height: 80, dynamic: ['src'] }] })
    await expectError(await h.fetch(`/v1/${own}?format=png&photo.src=${asset.ref}`, { headers: { 'dma-api-key': key } }), 404, /^photo\.src: no asset/)
    // The owner's asset is still there.
    expect((await api(`/assets/${asset.id}`, read)).status).toBe(200)
  })
})

describe('rendering asset: sources', () => {
  it('draws the asset exactly as the same image given as a data URI (pixel compare), also as an override', async () => {
    const asset = await created(await upload(photo))
    const design = (src: string) => ({ version: 2, width: 200, height: 140, background: '#ffffff', components: [{ type: 'image', key: 'photo', x: 10, y: 10, width: 150, height: 100, fit: 'cover', src, dynamic: ['src'] }] })
    const key = await h.createKey(user)
    const render = async (code: string, query = '') => {
      const response = await h.fetch(`/v1/${code}?format=png${query}`, { headers: { 'dma-api-key': key } })
      expect(response.status, await response.clone().text()).toBe(200)
      return new Uint8Array(await response.arrayBuffer())
    }
    const byAsset = await render(await h.createDesign(user, design(asset.ref)))
    const byDataUri = await render(await h.createDesign(user, design(`data:image/png;base64,${photo.toString('base64')}`)))
    expect(sniff(byAsset)).toBe('png')
    expect((await compareImages(byAsset, byDataUri, { threshold: 0 })).diffPixels).toBe(0)
    const overridden = await render(await h.createDesign(user, design('https://unused.example/x.png')), `&photo.src=${asset.ref}`)
    expect((await compareImages(overridden, byDataUri, { threshold: 0 })).diffPixels).toBe(0)
  })
})

describe('DELETE /assets/{id}', () => {
  it('is refused (409, naming the designs) while a published design draws it; force=true deletes it; a draft does not block', async () => {
    const asset = await created(await upload(photo))
    const doc = { version: 2, width: 100, height: 80, components: [{ type: 'image', key: 'logo', width: 100, height: 80, src: asset.ref }] }
    const response = await api('/designs/v2', write, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Uses the logo', document: doc, publish: true }) })
    expect(response.status).toBe(201)
    const design = (await response.json()) as { _id: string; renderCode: string }
    await api('/designs/v2', write, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Draft only', document: doc }) })
    // Rendered once, so the asset's bytes are in the render cache before the delete.
    const key = await h.createKey(user)
    expect((await h.fetch(`/v1/${design.renderCode}?format=png`, { headers: { 'dma-api-key': key } })).status).toBe(200)
    const body = await expectError(await api(`/assets/${asset.id}`, write, { method: 'DELETE' }), 409, /used by the published design "Uses the logo"; change it first, or delete with force=true/)
    expect(body.code).toBe('ERR_ASSET_IN_USE')
    expect(body.designs).toEqual([{ id: design._id, name: 'Uses the logo' }])
    await expectError(await api(`/assets/${asset.id}?force=maybe`, write, { method: 'DELETE' }), 400, /force/)
    expect(await (await api(`/assets/${asset.id}?force=true`, write, { method: 'DELETE' })).json()).toEqual({ deleted: true, id: asset.id })
    expect((await api(`/assets/${asset.id}`, read)).status).toBe(404)
    expect((await api(`/assets/${asset.id}?force=true`, write, { method: 'DELETE' })).status).toBe(404)
    // Deleted is deleted for new renders, its bytes cached or not (a finished output of the same
    // request may still come from the output cache until it expires: docs/assets.md).
    await expectError(await h.fetch(`/v1/${design.renderCode}?format=jpeg`, { headers: { 'dma-api-key': key } }), 404, /^logo\.src: no asset of this account/)
    expect(design._id).toMatch(/^d_/)
  })
})

describe('MCP upload_asset and list_assets', () => {
  async function connect(scope = 'read write') {
    return (await connectMcp(h, await accessToken(user, { scope, resource: MCP_URL }), 'asset-test')).call
  }

  it('uploads from base64 and returns the asset: reference, which list_assets lists', async () => {
    const call = await connect()
    const result = await call('upload_asset', { name: 'mcp.png', base64: photo.toString('base64') })
    expect(result.isError).toBeFalsy()
    const asset = result.structuredContent as AssetResource
    expect(asset).toMatchObject({ name: 'mcp.png', contentType: 'image/png', width: 90, ref: `asset:${asset.id}` })
    const listed = await call('list_assets', { limit: 100 })
    expect((listed.structuredContent as { docs: AssetResource[] }).docs.map((a) => a.id)).toContain(asset.id)
    const bad = await call('upload_asset', { base64: 'not base64!' })
    expect(bad.isError).toBe(true)
    expect(bad.content[0]!.text).toMatch(/base64: expected base64 text/)
    const both = await call('upload_asset', { base64: 'AAAA', url: imageUrl })
    expect(both.content[0]!.text).toMatch(/give exactly one of "base64"/)
  })

  it('uploads from a URL, fetched once under the network policy (here: loopback allowed for the test)', async () => {
    const call = await connect()
    const result = await call('upload_asset', { url: imageUrl })
    expect(result.isError, result.content[0]?.text).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ name: 'photo.png', contentType: 'image/png', width: 90, height: 60, bytes: photo.length })
  })

  it('SSRF: refuses a URL on a private address under the default policy', async () => {
    const strict = await createHarness({ withOAuth: {}, assets: memoryAssetStore() })
    const [previous, previousUser] = [h, user]
    h = strict
    try {
      user = await h.createUser('pro', PASSWORD)
      const call = await connect()
      const result = await call('upload_asset', { url: imageUrl })
      expect(result.isError).toBe(true)
      expect(result.content[0]!.text).toMatch(/^ERR_IMAGE_FETCH: could not fetch/)
    } finally {
      ;[h, user] = [previous, previousUser]
      await strict.close()
    }
  })

  it('needs the write scope to upload (a read token gets the insufficient_scope challenge)', async () => {
    const call = await connect('read')
    await expect(call('upload_asset', { base64: photo.toString('base64') })).rejects.toThrow(/Insufficient scope: required "read write"/)
    expect((await call('list_assets', {})).isError).toBeFalsy()
  })
})

describe('previews and exports draw assets too', () => {
  it("a draft preview and a stream export of the owner's design draw the asset; another owner's preview is refused naming the field", async () => {
    const asset = await created(await upload(photo))
    const doc = { version: 2, width: 120, height: 80, components: [{ type: 'image', key: 'pic', width: 120, height: 80, src: asset.ref }] }
    const response = await api('/designs/v2', write, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Preview me', document: doc }) })
    const design = (await response.json()) as { _id: string }
    const preview = await api(`/designs/v2/${design._id}/preview`, read, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(preview.status, await preview.clone().text()).toBe(200)
    expect(((await preview.json()) as { warnings: unknown[] }).warnings).toEqual([])
    const exported = await api(`/designs/v2/${design._id}/export?draft=true&format=png`, write, { method: 'POST' })
    expect(exported.status, await exported.clone().text()).toBe(200)
    expect(sniff(new Uint8Array(await exported.arrayBuffer()))).toBe('png')
    const theirs = await api('/designs/v2', othersWrite, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Borrowed', document: doc }) })
    const borrowed = (await theirs.json()) as { _id: string }
    await expectError(await api(`/designs/v2/${borrowed._id}/preview`, othersWrite, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 404, /^pic\.src: no asset of this account/)
  })
})
