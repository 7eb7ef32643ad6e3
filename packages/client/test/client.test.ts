// @litho/client against a real server (createLithoApp behind Node's http server on a loopback
// port): every convenience call, with real render keys and OAuth access tokens, and its errors.
import type { UserRecord } from '@litho/core/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SMALL_DESIGN } from '../../http-h3/test/_harness.js'
import { PASSWORD, oauthHelpers } from '../../http-h3/test/_oauth.js'
import { LithoApiError, createLithoClient, renderQuery, signRenderUrl, type LithoClient } from '../src/index.js'
import { failureOf, pngSize, startServer, type RealServer } from './_server.js'

let server: RealServer
let user: UserRecord
/** The client with the user's access token. */
let owner: LithoClient
const { accessToken } = oauthHelpers(() => server.h)

beforeAll(async () => {
  server = await startServer()
  user = await server.h.createUser('pro', PASSWORD)
  const token = await accessToken(user, { scope: 'read write' })
  owner = createLithoClient({ renderUrl: server.url, token })
})
afterAll(() => server.close())

describe('createLithoClient', () => {
  let designId: string
  let renderCode: string
  let key: { key: string; _id: string; linkSecret?: string }

  it('keys: create, list and (at the end) revoke render keys', async () => {
    key = await owner.keys.create('client test')
    expect(key).toMatchObject({ success: true, name: 'client test', active: true })
    expect(key.key).toMatch(/\S{20,}/)
    expect(key.linkSecret, 'the app has signed render links').toBeTruthy()
    const list = await owner.keys.list()
    expect(list.docs.map((k) => k._id)).toContain(key._id)
  })

  it('designs: create, list, get, config, update and publish', async () => {
    const created = await owner.designs.create({ name: 'Client card', document: SMALL_DESIGN, publish: true })
    designId = created._id
    renderCode = created.renderCode
    expect(created).toMatchObject({ name: 'Client card' })
    const list = await owner.designs.list({ limit: 5 })
    expect(list.docs.map((d) => d._id)).toContain(designId)
    expect((await owner.designs.get(designId)).design).toMatchObject({ width: 240, height: 160 })
    const config = await owner.designs.config(designId)
    expect(config.variations.map((v) => v.id)).toContain('square')
    const updated = await owner.designs.update(designId, { name: 'Renamed', patch: { components: { title: { text: 'Draft title' } } } })
    expect(updated.name).toBe('Renamed')
    expect(updated.draft).toBeTruthy()
    const published = await owner.designs.publish(designId)
    expect(JSON.stringify(published.design)).toContain('Draft title')
  })

  it('render: GET with overrides and a variation, returning the image and its headers', async () => {
    const litho = createLithoClient({ renderUrl: server.url, renderKey: key.key })
    const image = await litho.render(renderCode, { format: 'png', overrides: { 'title.text': 'From the client', nope: 'x' } })
    expect(image.contentType).toBe('image/png')
    expect(pngSize(image.bytes)).toEqual({ width: 240, height: 160 })
    expect(image.etag).toMatch(/^"/)
    expect(image.ignoredOverrides).toEqual(['nope'])
    expect(image.quotaRemaining).toBeGreaterThan(0)
    expect(pngSize((await litho.render(renderCode, { format: 'png', variation: 'square' })).bytes)).toEqual({ width: 160, height: 160 })
    const hosted = await litho.render(renderCode, { format: 'png', delivery: 'hosted' })
    expect(hosted).toMatchObject({ success: true, delivery: 'hosted', format: 'png' })
  })

  it('renderUrl builds the GET URL (no key in it); signedRenderUrl signs it so it renders without a key', async () => {
    const litho = createLithoClient({ renderUrl: `${server.url}/`, renderKey: key.key })
    const url = litho.renderUrl(renderCode, { format: 'png', overrides: { 'title.text': 'Hi & bye' } })
    expect(url).toBe(`${server.url}/v1/${renderCode}?format=png&title.text=Hi+%26+bye`)
    expect((await fetch(url)).status, 'no key').toBe(401)
    const signed = await litho.signedRenderUrl({ designId: renderCode, format: 'png', overrides: { 'title.text': 'Signed' }, keyId: key._id, secret: key.linkSecret! })
    expect(signed).toMatch(/[?&]sig=[A-Za-z0-9_-]{43}/)
    const response = await fetch(signed)
    expect(response.status).toBe(200)
    expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toEqual({ width: 240, height: 160 })
    // The re-exported signer makes the same link.
    expect(await signRenderUrl({ url, keyId: key._id, secret: key.linkSecret! })).toMatch(/[?&]sig=/)
    expect(renderQuery({ quality: 70 }, { 'badge.fill': '#fff' }).toString()).toBe('quality=70&badge.fill=%23fff')
    expect(() => renderQuery({}, { format: 'png' })).toThrow(/render parameter/)
  })

  it('renderWithBody: POST with nested overrides', async () => {
    const litho = createLithoClient({ renderUrl: server.url, renderKey: key.key })
    const image = await litho.renderWithBody(renderCode, { title: { text: 'Posted', color: '#ff0000' } }, { format: 'png' })
    expect(pngSize(image.bytes)).toEqual({ width: 240, height: 160 })
    const signed = await litho.renderWithBody(renderCode, {}, { format: 'jpeg', delivery: 'signed', expiresIn: 5 })
    expect(signed).toMatchObject({ delivery: 'signed', format: 'jpeg' })
    expect(signed.expiresAt).toBeTruthy()
  })

  it('bulk: several renders at once', async () => {
    const litho = createLithoClient({ renderUrl: server.url, renderKey: key.key })
    const result = await litho.bulk({ items: [{ designId: renderCode }, { designId: renderCode, variation: 'square', overrides: { 'title.text': 'Two' } }], format: 'png' })
    expect(result.summary).toEqual({ total: 2, succeeded: 2, failed: 0 })
    expect(result.results.map((r) => r.variation)).toEqual(['master', 'square'])
  })

  it('exports: create (queued), wait, get and list', async () => {
    const ack = await owner.exports.create(designId, { delivery: 'hosted', format: 'png', overrides: { 'title.text': 'Exported' } })
    expect(ack).toMatchObject({ success: true, status: 'queued' })
    const done = await owner.exports.wait(ack.exportId, { intervalMs: 50, timeoutMs: 30_000 })
    expect(done).toMatchObject({ status: 'succeeded', format: 'png', delivery: 'hosted' })
    expect(done.url).toBeTruthy()
    expect((await owner.exports.get(ack.exportId)).exportId).toBe(ack.exportId)
    expect((await owner.exports.list()).docs.map((j) => j.exportId)).toContain(ack.exportId)
  })

  it('analytics: the usage of the renders above', async () => {
    // The range ends now (exclusive): the renders above were all at the harness clock's now.
    server.h.clock.advance(60_000)
    const usage = await owner.analytics.usage({ groupBy: 'day' })
    expect(usage).toMatchObject({ success: true, groupBy: 'day' })
    // 3 GET renders, a signed link, 2 POSTs, 2 bulk items, an export (the 401 without a key is not counted).
    expect(usage.total).toBe(9)
    expect(usage.quota.used).toBe(9)
  })

  it('errors: a LithoApiError with the status, message and code of the answer', async () => {
    const litho = createLithoClient({ renderUrl: server.url, renderKey: key.key })
    const missing = await failureOf(litho.render('no-such-design', { format: 'png' }))
    expect(missing).toBeInstanceOf(LithoApiError)
    expect(missing).toMatchObject({ status: 404 })
    expect((missing as LithoApiError).message).toMatch(/^404 /)
    const bad = await failureOf(litho.render(renderCode, { format: 'png', quality: 500 }))
    expect(bad).toMatchObject({ status: 400 })
    expect(bad.message).toMatch(/quality/)
    const anonymous = createLithoClient({ renderUrl: server.url })
    const unauthorised = await failureOf(anonymous.designs.list())
    expect(unauthorised.status).toBe(401)
    expect(unauthorised.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })

  it('keys.revoke and designs.delete: the key stops rendering, the design is gone', async () => {
    expect(await owner.keys.revoke(key._id)).toEqual({ success: true, _id: key._id })
    const litho = createLithoClient({ renderUrl: server.url, renderKey: key.key })
    await expect(litho.render(renderCode)).rejects.toMatchObject({ status: 401 })
    expect(await owner.designs.delete(designId)).toEqual({ success: true, _id: designId })
    await expect(owner.designs.get(designId)).rejects.toMatchObject({ status: 404 })
  })

  it('takes the token as a function, called before each call', async () => {
    let calls = 0
    const token = await accessToken(user, { scope: 'read' })
    const litho = createLithoClient({ renderUrl: server.url, token: async () => (calls++, token) })
    await litho.designs.list()
    await litho.keys.list()
    expect(calls).toBe(2)
  })
})
