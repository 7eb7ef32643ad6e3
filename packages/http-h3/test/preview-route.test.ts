// POST /designs/v2/{id}/preview over HTTP with real access tokens: the PNG as a data URI, the layout of
// every component, an unsaved document, unmetered, its limits (maxSide 16-4096 from both sides),
// scopes, another owner's design, CORS.
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { SMALL_DESIGN, createHarness, expectError, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)
let user: UserRecord
let read: string
let othersRead: string
let id: string
let othersId: string

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('free', PASSWORD)
  const other = await h.createUser('pro', PASSWORD)
  read = await accessToken(user, { scope: 'read' })
  othersRead = await accessToken(other, { scope: 'read' })
  id = (await h.designs.getByRenderCode(await h.createDesign(user)))!.id
  othersId = (await h.designs.getByRenderCode(await h.createDesign(other)))!.id
})
afterAll(() => h.close())

type Preview = { image: string; width: number; height: number; scale: number; source: string; variation: string; warnings: Array<{ code: string; key?: string }>; layout: { width: number; height: number; components: Array<Record<string, unknown>> } }
const preview = (body: unknown, token = read, design = id) =>
  api(`/designs/v2/${design}/preview`, token, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://console.example' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) })

describe('POST /designs/v2/{id}/preview', () => {
  it('answers the PNG as a data URI with its size, the version rendered, warnings and the layout; CORS open, not cached, not metered', async () => {
    const usage = () => h.meter.usage({ subject: user.id, window: h.clock.now().toISOString().slice(0, 7) })
    const before = await usage()
    const response = await preview({ overrides: { 'title.text': 'Hi', 'title.x': 3 } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toMatch(/no-store/)
    const body = (await response.json()) as Preview
    expect(body).toMatchObject({ width: 240, height: 160, scale: 1, source: 'published', variation: 'master' })
    expect(body.image.startsWith('data:image/png;base64,')).toBe(true)
    const meta = await sharp(Buffer.from(body.image.slice('data:image/png;base64,'.length), 'base64')).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 240, 160])
    expect(body.warnings.map((w) => [w.code, w.key])).toContainEqual(['override_ignored', 'title.x'])
    expect(body.layout).toEqual({
      width: 240,
      height: 160,
      components: [
        { key: 'title', type: 'text', x: 10, y: 10, width: 220, height: 60 },
        { key: 'badge', type: 'shape', x: 10, y: 100, width: 50, height: 50 },
        { key: 'photo', type: 'image', x: 150, y: 90, width: 60, height: 60 },
      ],
    })
    expect(await usage()).toBe(before)
  })

  it('an empty body previews the default version; a variation gives its size', async () => {
    const empty = (await (await preview(undefined)).json()) as Preview
    expect(empty).toMatchObject({ width: 240, height: 160, source: 'published' })
    const square = (await (await preview({ variation: 'square' })).json()) as Preview
    expect(square).toMatchObject({ width: 160, height: 160, variation: 'square', layout: { width: 160, height: 160 } })
  })

  it('maxSide scales the image, never the layout (in pixels of the rendered size); 16 and 4096 are taken', async () => {
    const small = (await (await preview({ maxSide: 16 })).json()) as Preview
    expect(small).toMatchObject({ width: 16, height: 11, scale: 16 / 240, layout: { width: 240, height: 160 } })
    expect(small.layout.components[0]).toMatchObject({ key: 'title', x: 10, width: 220 })
    expect((await preview({ maxSide: 4096 })).status).toBe(200)
  })

  it('renders an unsaved document (source "document") and stores nothing: live editing', async () => {
    const stored = await h.designs.get(id)
    const document = { ...SMALL_DESIGN, width: 300, components: [{ ...SMALL_DESIGN.components[0], x: 40 }] }
    const body = (await (await preview({ document })).json()) as Preview
    expect(body).toMatchObject({ source: 'document', width: 300, layout: { components: [{ key: 'title', x: 40 }] } })
    expect(await h.designs.get(id)).toEqual(stored)
  })

  it.each([
    ['maxSide 15 (below the smallest)', { maxSide: 15 }, /^maxSide: expected a whole number from 16 to 4096, received 15/],
    ['maxSide 4097 (above the largest)', { maxSide: 4097 }, /^maxSide: expected a whole number from 16 to 4096, received 4097/],
    ['maxSide 2.5', { maxSide: 2.5 }, /^maxSide: /],
    ['an unknown source', { source: 'latest' }, /^source: expected "draft" or "published"/],
    ['a source the design does not have', { source: 'draft' }, /^source: design .* has no draft/],
    ['source with document', { source: 'published', document: SMALL_DESIGN }, /^source: give either "source" .* or "document"/],
    ['an unknown field', { overides: {} }, /^overides: unknown field; expected one of source, overrides, variation, maxSide, document/],
    ['a body that is not an object', '[1]', /^body: expected a JSON object/],
    ['overrides that are not an object', { overrides: 'title.text=Hi' }, /^overrides: /],
    ['a document that is not an object (as PATCH answers it)', { document: 'card' }, /^document: expected/],
  ])('answers 400 naming the field for %s', async (_, body, message) => {
    expect((await expectError(await preview(body), 400, message)).code).toBe('ERR_INVALID_REQUEST')
  })

  it('an invalid document: 400 ERR_INVALID_DESIGN with the JSON path; an invalid override value: ERR_INVALID_OVERRIDE at overrides.<key>; an unknown variation lists the valid ones', async () => {
    const bad = await expectError(await preview({ document: { ...SMALL_DESIGN, width: 0 } }), 400, /Invalid design document in "document"/)
    expect(bad.issues).toContainEqual(expect.objectContaining({ path: 'document.width' }))
    const override = await expectError(await preview({ overrides: { 'title.color': 'not-a-colour' } }), 400, /overrides\.title\.color/)
    expect(override.code).toBe('ERR_INVALID_OVERRIDE')
    const variation = await expectError(await preview({ variation: 'nope' }), 400, /nope/)
    expect(variation).toMatchObject({ code: 'ERR_UNKNOWN_VARIATION', available: ['master', 'square'] })
  })

  it("another account's design is a 404, with or without a document; the owner previews it", async () => {
    for (const body of [{}, { document: SMALL_DESIGN }]) {
      const error = await expectError(await preview(body, read, othersId), 404, /^no design has the id/)
      expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
    }
    expect((await preview({}, othersRead, othersId)).status).toBe(200)
  })

  it('needs a token with read (401 without one); a write-only token is refused 403', async () => {
    const none = await h.fetch(`/designs/v2/${id}/preview`, { method: 'POST' })
    expect(none.status).toBe(401)
    const writeOnly = await accessToken(user, { scope: 'write' })
    const response = await preview({}, writeOnly)
    expect((await expectError(response, 403, /insufficient scope/)).code).toBe('ERR_INSUFFICIENT_SCOPE')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})
