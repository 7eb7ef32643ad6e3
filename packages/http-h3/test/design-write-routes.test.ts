// The design-authoring bearer endpoints (POST /designs/v2, PATCH and DELETE /designs/v2/{id},
// POST /designs/v2/{id}/publish) over HTTP with real access tokens: the same answers as the MCP
// tools, field-named errors, scopes, another owner's design, CORS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DesignResourceSchema, PLANS } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { SMALL_DESIGN, createHarness, expectError, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)

let user: UserRecord
let other: UserRecord
let write: string
let read: string
let othersWrite: string

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  other = await h.createUser('pro', PASSWORD)
  write = await accessToken(user)
  read = await accessToken(user, { scope: 'read' })
  othersWrite = await accessToken(other)
})
afterAll(() => h.close())

const send = (method: string, path: string, token: string, body?: unknown) =>
  api(path, token, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json', origin: 'https://console.example' }, body: typeof body === 'string' ? body : JSON.stringify(body) }) })
type Design = { _id: string; name: string; renderCode: string; design: Record<string, unknown> | null; draft?: Record<string, unknown>; createdAt: string; updatedAt: string }
const create = async (body: unknown = { name: 'Card', document: SMALL_DESIGN }, token = write) => {
  const response = await send('POST', '/designs/v2', token, body)
  expect(response.status).toBe(201)
  return (await response.json()) as Design
}

describe('POST /designs/v2', () => {
  it('creates a draft (201, the Design resource, same as GET /designs/v2/{id}) that lists and previews, CORS open', async () => {
    const response = await send('POST', '/designs/v2', write, { name: '  Card  ', document: SMALL_DESIGN })
    expect(response.status).toBe(201)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const design = (await response.json()) as Design
    expect(DesignResourceSchema.parse(design)).toEqual(design)
    expect(design).toMatchObject({ name: 'Card', design: null, draft: SMALL_DESIGN })
    expect(await (await api(`/designs/v2/${design._id}`, read)).json()).toEqual(design)
    const list = (await (await api('/designs/v2', read)).json()) as { docs: Array<{ _id: string }> }
    expect(list.docs.map((d) => d._id)).toContain(design._id)
    // A draft is not rendered by the render URL until published.
    const key = await h.createKey(user)
    expect((await h.fetch(`/v1/${design.renderCode}?format=png`, { headers: { 'dma-api-key': key } })).status).toBe(404)
  })

  it('publishes at once with publish: true: the render URL renders it', async () => {
    const design = await create({ name: 'Live', document: SMALL_DESIGN, publish: true })
    expect(design.design).toEqual(SMALL_DESIGN)
    expect(design).not.toHaveProperty('draft')
    const key = await h.createKey(user)
    expect((await h.fetch(`/v1/${design.renderCode}?format=png`, { headers: { 'dma-api-key': key } })).status).toBe(200)
  })

  it.each([
    ['no body', undefined, /^body: expected a JSON object/],
    ['an array', '[]', /^body: expected a JSON object/],
    ['text that is not JSON', 'name=Card', /^body: expected JSON/],
    ['an unknown field (a typo)', { name: 'Card', documnet: SMALL_DESIGN }, /documnet: unknown field; expected one of name, document, publish/],
    ['no name', { document: SMALL_DESIGN }, /^name: expected a design name of 1 to 200 characters/],
    ['a name of 201 characters', { name: 'x'.repeat(201), document: SMALL_DESIGN }, /^name: expected a design name of 1 to 200 characters/],
    ['a document that is not an object', { name: 'Card', document: 'card' }, /^document: /],
    ['publish that is not a boolean', { name: 'Card', document: SMALL_DESIGN, publish: 'yes' }, /^publish: expected true or false/],
  ])('answers 400 naming the field for %s, and stores nothing', async (_, body, message) => {
    const before = (await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).total
    const response = body === undefined ? await api('/designs/v2', write, { method: 'POST' }) : await send('POST', '/designs/v2', write, body)
    expect((await expectError(response, 400, message)).code).toBe('ERR_INVALID_REQUEST')
    expect((await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).total).toBe(before)
  })

  it('a name of exactly 200 characters is taken', async () => {
    expect((await create({ name: 'x'.repeat(200), document: SMALL_DESIGN })).name).toHaveLength(200)
  })

  it('answers 400 ERR_INVALID_DESIGN with the JSON path of each problem of the document', async () => {
    const document = { ...SMALL_DESIGN, components: [{ ...SMALL_DESIGN.components[0], fontSize: -3 }] }
    const body = await expectError(await send('POST', '/designs/v2', write, { name: 'Bad', document }), 400, /Invalid design document in "document"/)
    expect(body.code).toBe('ERR_INVALID_DESIGN')
    expect((body.issues as Array<{ path: string }>).map((i) => i.path)).toContain('document.components[0].fontSize')
  })

  it("the plan's template limit: the same ERR_TEMPLATE_LIMIT as create_design (403), nothing stored past it", async () => {
    const small = await h.createUser('free', PASSWORD)
    const token = await accessToken(small)
    const limit = PLANS.free.templates!
    for (let i = 0; i < limit; i++) expect((await send('POST', '/designs/v2', token, { name: `d${i}`, document: SMALL_DESIGN })).status).toBe(201)
    const body = await expectError(await send('POST', '/designs/v2', token, { name: 'one more', document: SMALL_DESIGN }), 403, new RegExp(`The free plan allows ${limit} designs and this account has ${limit}`))
    expect(body.code).toBe('ERR_TEMPLATE_LIMIT')
    expect((await h.designs.listByOwner(small.id, { offset: 0, limit: 1 })).total).toBe(limit)
    // Deleting one makes room again.
    const first = (await h.designs.listByOwner(small.id, { offset: 0, limit: 1 })).items[0]!
    expect((await send('DELETE', `/designs/v2/${first.id}`, token)).status).toBe(200)
    expect((await send('POST', '/designs/v2', token, { name: 'again', document: SMALL_DESIGN })).status).toBe(201)
  })
})

describe('PATCH /designs/v2/{id}, POST /designs/v2/{id}/publish, DELETE /designs/v2/{id}', () => {
  it('patches the draft by component key, leaving the published version, then publishes it', async () => {
    const design = await create({ name: 'Card', document: SMALL_DESIGN, publish: true })
    const response = await send('PATCH', `/designs/v2/${design._id}`, write, { patch: { components: { title: { text: 'Winter' } } } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const patched = (await response.json()) as Design
    expect(patched.design).toEqual(SMALL_DESIGN)
    expect((patched.draft!.components as Array<{ key: string; text?: string }>)[0]!.text).toBe('Winter')
    const published = (await (await send('POST', `/designs/v2/${design._id}/publish`, write)).json()) as Design
    expect((published.design!.components as Array<{ text?: string }>)[0]!.text).toBe('Winter')
    expect(published).not.toHaveProperty('draft')
    // Publishing again changes nothing.
    expect(await (await send('POST', `/designs/v2/${design._id}/publish`, write)).json()).toEqual(published)
  })

  it('replaces the draft with document and publishes in the same write with publish: true; renames', async () => {
    const design = await create()
    const document = { ...SMALL_DESIGN, width: 300 }
    const updated = (await (await send('PATCH', `/designs/v2/${design._id}`, write, { name: 'Renamed', document, publish: true })).json()) as Design
    expect(updated).toMatchObject({ name: 'Renamed', design: document })
    expect(updated).not.toHaveProperty('draft')
  })

  it('{ publish: true } alone publishes the current draft; with name, renames then publishes', async () => {
    const design = await create()
    const updated = (await (await send('PATCH', `/designs/v2/${design._id}`, write, { name: 'Shipped', publish: true })).json()) as Design
    expect(updated).toMatchObject({ name: 'Shipped', design: SMALL_DESIGN })
    expect(updated).not.toHaveProperty('draft')
  })

  it.each([
    ['both document and patch', { document: SMALL_DESIGN, patch: { remove: ['badge'] } }, /^patch: give either "document"/],
    ['nothing to change', {}, /^nothing to change/],
    ['a patch naming an unknown component', { patch: { components: { titel: { text: 'x' } } } }, /patch\.components\.titel/],
    ['an unknown field', { draft: SMALL_DESIGN }, /^draft: unknown field; expected one of name, document, patch, publish/],
    ['publish that is not a boolean', { name: 'x', publish: 1 }, /^publish: expected true or false, received 1/],
    ['an empty name', { name: '  ' }, /^name: expected a design name/],
  ])('answers 400 naming the field for %s, and changes nothing', async (_, body, message) => {
    const design = await create()
    const response = await send('PATCH', `/designs/v2/${design._id}`, write, body)
    expect((await expectError(response, 400, message)).code).toBe('ERR_INVALID_REQUEST')
    expect(await (await api(`/designs/v2/${design._id}`, read)).json()).toEqual(design)
  })

  it('deletes: 200 { success, _id }, then 404 everywhere, the render URL stops', async () => {
    const design = await create({ name: 'Gone', document: SMALL_DESIGN, publish: true })
    const response = await send('DELETE', `/designs/v2/${design._id}`, write)
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({ success: true, _id: design._id })
    for (const [method, path] of [['GET', `/designs/v2/${design._id}`], ['DELETE', `/designs/v2/${design._id}`], ['PATCH', `/designs/v2/${design._id}`], ['POST', `/designs/v2/${design._id}/publish`]] as const) {
      const body = await expectError(await send(method, path, method === 'GET' ? read : write, method === 'PATCH' ? { name: 'x' } : undefined), 404, /^no design has the id/)
      expect(body.code).toBe('ERR_DESIGN_NOT_FOUND')
    }
    const key = await h.createKey(user)
    expect((await h.fetch(`/v1/${design.renderCode}?format=png`, { headers: { 'dma-api-key': key } })).status).toBe(404)
  })

  it("another account's design is a 404 to every write, and is left as it was", async () => {
    const theirs = await create({ name: 'secret-theirs', document: SMALL_DESIGN }, othersWrite)
    for (const [method, path, body] of [
      ['PATCH', `/designs/v2/${theirs._id}`, { name: 'mine now' }],
      ['POST', `/designs/v2/${theirs._id}/publish`, undefined],
      ['DELETE', `/designs/v2/${theirs._id}`, undefined],
    ] as const) {
      const response = await send(method, path, write, body)
      const error = await expectError(response, 404, /^no design has the id/)
      expect(JSON.stringify(error)).not.toContain('secret-theirs')
    }
    expect(await (await api(`/designs/v2/${theirs._id}`, othersWrite)).json()).toEqual(theirs)
  })

  it('a read-only token gets 403 ERR_INSUFFICIENT_SCOPE on every write, and nothing changes', async () => {
    const design = await create()
    const before = (await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).total
    for (const [method, path, body] of [
      ['POST', '/designs/v2', { name: 'Card', document: SMALL_DESIGN }],
      ['PATCH', `/designs/v2/${design._id}`, { name: 'x' }],
      ['POST', `/designs/v2/${design._id}/publish`, undefined],
      ['DELETE', `/designs/v2/${design._id}`, undefined],
    ] as const) {
      const response = await send(method, path, read, body)
      expect((await expectError(response, 403, /insufficient scope/)).code).toBe('ERR_INSUFFICIENT_SCOPE')
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="read write"/)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
    expect((await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).total).toBe(before)
    expect(await (await api(`/designs/v2/${design._id}`, read)).json()).toEqual(design)
  })

  it('answers the CORS preflights of the new methods before authentication', async () => {
    for (const [path, method] of [['/designs/v2', 'POST'], ['/designs/v2/d_x', 'PATCH'], ['/designs/v2/d_x', 'DELETE'], ['/designs/v2/d_x/publish', 'POST']]) {
      const response = await h.fetch(path!, { method: 'OPTIONS', headers: { origin: 'https://console.example', 'access-control-request-method': method!, 'access-control-request-headers': 'authorization, content-type' } })
      expect(response.status, path).toBeLessThan(300)
      expect(response.headers.get('access-control-allow-methods'), path).toContain(method)
    }
  })
})
