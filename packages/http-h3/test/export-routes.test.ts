// The synchronous export endpoints (docs/exports-and-jobs.md; bearer, signed-in
// session of the design owner): POST /designs/v2/{id}/export, …/export/driver-upload and
// …/export/signed-url, with real access tokens; their errors and metering
// (one render per call, refunded on failure, 429 when used up).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LithoError, type Renderer } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { RENDER_URL, SMALL_DESIGN, WINDOW, createHarness, expectError, sniff, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)

let user: UserRecord
/** A token with `read write`. */
let token: string
/** A token with `read` only. */
let readToken: string
/** A published design of `user` (SMALL_DESIGN plus a text component keyed literally `format`). */
let id: string

/** SMALL_DESIGN with a dynamic text component keyed `format`. */
const FORMAT_DESIGN = { ...SMALL_DESIGN, components: [...SMALL_DESIGN.components, { type: 'text', key: 'format', x: 10, y: 70, width: 120, height: 24, text: 'label', fontSize: 16, color: '#ffffff' }] }
/** A draft that differs visibly: another size. */
const DRAFT = { ...SMALL_DESIGN, width: 320, height: 200, background: '#7c3aed' }

const ENDPOINTS = [
  ['/export', 'stream'],
  ['/export/driver-upload', 'hosted'],
  ['/export/signed-url', 'signed'],
] as const

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  token = await accessToken(user)
  readToken = await accessToken(user, { scope: 'read' })
  id = await idOf(await h.createDesign(user, FORMAT_DESIGN))
})
afterAll(() => h.close())

/** The `_id` of the design with render code `code`. */
const idOf = async (code: string, harness = h) => (await harness.designs.getByRenderCode(code))!.id
/** POST an export: `body` as JSON (a string is sent as is), with the token when given. */
const exportCall = (suffix: string, options: { design?: string; query?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {}) => {
  const init: RequestInit = { method: 'POST', headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers } }
  if (options.body !== undefined) init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  return api(`/designs/v2/${options.design ?? id}${suffix}${options.query ?? ''}`, options.token === null ? undefined : (options.token ?? token), init)
}
const usage = (who: UserRecord = user) => h.meter.usage({ subject: who.id, window: WINDOW })
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())
const pngSize = (bytes: Uint8Array) => [Buffer.from(bytes).readUInt32BE(16), Buffer.from(bytes).readUInt32BE(20)]
/** The bytes behind an export of any endpoint (fetching the stored file for the JSON ones). */
async function exportedBytes(response: Response): Promise<Uint8Array> {
  expect(response.status).toBe(200)
  if (response.headers.get('content-type')!.startsWith('application/json')) {
    const file = await h.fetch(((await response.json()) as { url: string }).url)
    expect(file.status).toBe(200)
    return bytesOf(file)
  }
  return bytesOf(response)
}

describe('POST /designs/v2/{id}/export', () => {
  it('answers png bytes by default, with the quota headers, one render counted', async () => {
    const before = await usage()
    const response = await exportCall('/export')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    const bytes = await bytesOf(response)
    expect(sniff(bytes)).toBe('png')
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength)
    expect(pngSize(bytes)).toEqual([240, 160])
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.png"`)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('x-litho-source')).toBe('published')
    expect(response.headers.get('x-litho-variation')).toBe('master')
    expect(response.headers.get('x-quota-limit')).toBe('10000')
    expect(response.headers.get('x-quota-reset')).toBe('2026-12-01T00:00:00.000Z')
    expect(await usage()).toBe(before + 1)
    expect(Number(response.headers.get('x-quota-remaining'))).toBe(10_000 - (await usage()))
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Quota-Remaining.*X-Litho-Ignored-Overrides/)
  })

  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
    ['pdf', 'application/pdf', 'pdf'],
  ])('format=%s answers %s, from the query or the body', async (format, contentType, extension) => {
    for (const response of [await exportCall('/export', { query: `?format=${format}` }), await exportCall('/export', { body: { format } })]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(contentType)
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.${extension}"`)
      expect(sniff(await bytesOf(response))).toBe(format)
    }
  })

  it('takes parameters from the body; the query wins for one given in both', async () => {
    const fromBody = await exportCall('/export', { body: { format: 'webp', variation: 'square' } })
    expect(fromBody.headers.get('content-type')).toBe('image/webp')
    expect(fromBody.headers.get('x-litho-variation')).toBe('square')
    const queryWins = await exportCall('/export', { query: '?format=jpeg&variation=master', body: { format: 'webp', variation: 'square' } })
    expect(queryWins.headers.get('content-type')).toBe('image/jpeg')
    expect(queryWins.headers.get('x-litho-variation')).toBe('master')
  })

  it('quality changes jpeg output', async () => {
    const low = await bytesOf(await exportCall('/export', { query: '?format=jpeg&quality=5' }))
    const high = await bytesOf(await exportCall('/export', { body: { format: 'jpeg', quality: 100 } }))
    expect(low.byteLength).toBeLessThan(high.byteLength)
  })

  it('renders a variation at its size', async () => {
    const response = await exportCall('/export', { query: '?variation=square' })
    expect(response.headers.get('x-litho-variation')).toBe('square')
    expect(pngSize(await bytesOf(response))).toEqual([160, 160])
  })

  it('applies body overrides (nested and dot paths) and query dot paths', async () => {
    const plain = await bytesOf(await exportCall('/export'))
    for (const response of [
      await exportCall('/export', { body: { title: { text: 'From body' } } }),
      await exportCall('/export', { body: { 'badge.fill': '#22c55e' } }),
      await exportCall('/export', { query: '?title.text=From%20query' }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('x-litho-ignored-overrides')).toBeNull()
      expect(Buffer.compare(Buffer.from(await bytesOf(response)), Buffer.from(plain))).not.toBe(0)
    }
  })

  it('strips the reserved body keys: `format` is the parameter, never the component keyed `format`; none is reported as ignored', async () => {
    const plain = await bytesOf(await exportCall('/export'))
    const reserved = await exportCall('/export', { body: { format: 'png', quality: 50, variation: 'master', draft: false, delivery: 'signed', expiresIn: 5, webhookUrl: 'https://hooks.example/x', 'dma-api-key': 'lk_x' } })
    expect(reserved.status).toBe(200)
    expect(reserved.headers.get('x-litho-ignored-overrides')).toBeNull()
    expect(reserved.headers.get('x-litho-warnings')).toBeNull()
    expect(Buffer.compare(Buffer.from(await bytesOf(reserved)), Buffer.from(plain))).toBe(0)
    // The component's text is still reachable by its dot path.
    const changed = await exportCall('/export', { body: { format: 'png', 'format.text': 'Changed' } })
    expect(Buffer.compare(Buffer.from(await bytesOf(changed)), Buffer.from(plain))).not.toBe(0)
  })

  it('reports override keys that name nothing in X-Litho-Ignored-Overrides', async () => {
    const response = await exportCall('/export', { body: { title: 'bare', 'nope.text': 'x', 'title.text': 'ok' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-ignored-overrides')!.split(',').sort()).toEqual(['nope.text', 'title'])
    expect(response.headers.get('x-litho-warnings')).toBe('2')
  })

  it('accepts no body, and an empty one', async () => {
    expect((await exportCall('/export', { body: '' })).status).toBe(200)
    expect((await exportCall('/export', { body: '{}' })).status).toBe(200)
  })

  it('stores nothing', async () => {
    const puts: string[] = []
    const original = h.files.put.bind(h.files)
    h.files.put = async (...args) => (puts.push(args[0]), original(...args))
    try {
      expect((await exportCall('/export', { body: { 'title.text': 'x' } })).status).toBe(200)
      expect(puts).toEqual([])
    } finally {
      h.files.put = original
    }
  })
})

describe('POST /designs/v2/{id}/export/driver-upload', () => {
  it('stores the export publicly and answers success, url, format, file and warnings; anyone can fetch the URL', async () => {
    const before = await usage()
    const response = await exportCall('/export/driver-upload')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('x-quota-remaining')).toBe(String(10_000 - (before + 1)))
    expect(response.headers.get('x-litho-source')).toBe('published')
    const body = (await response.json()) as Record<string, any>
    expect(Object.keys(body).sort()).toEqual(['file', 'format', 'success', 'url', 'warnings'])
    expect(body).toMatchObject({ success: true, format: 'png', warnings: [], file: { contentType: 'image/png', visibility: 'public', width: 240, height: 160, variation: 'master', format: 'png' } })
    expect(body.url).toMatch(new RegExp(`^${RENDER_URL.replace(/\./g, '\\.')}/files/${user.id}/r_[A-Za-z0-9_-]+\\.png$`))
    const file = await h.fetch(body.url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(sniff(await bytesOf(file))).toBe('png')
    expect(await usage()).toBe(before + 1)
  })

  it.each(['jpeg', 'webp', 'pdf'])('stores %s when asked, and ignores expiresIn', async (format) => {
    const body = (await (await exportCall('/export/driver-upload', { query: `?format=${format}&expiresIn=5` })).json()) as Record<string, any>
    expect(body.format).toBe(format)
    expect(body.expiresAt).toBeUndefined()
    expect(sniff(await bytesOf(await h.fetch(body.url)))).toBe(format)
  })

  it('lists ignored override keys in the body and the header', async () => {
    const response = await exportCall('/export/driver-upload', { body: { title: 'bare' } })
    expect(response.headers.get('x-litho-ignored-overrides')).toBe('title')
    const body = (await response.json()) as { warnings: string[] }
    expect(body.warnings).toHaveLength(1)
    expect(body.warnings[0]).toMatch(/bare component key/)
  })
})

describe('POST /designs/v2/{id}/export/signed-url', () => {
  it('stores the export privately and answers a signed URL that works until expiresAt (default 60 minutes), then 403', async () => {
    const response = await exportCall('/export/signed-url', { query: '?format=webp' })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, any>
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'file', 'format', 'success', 'url', 'warnings'])
    expect(body).toMatchObject({ success: true, format: 'webp', file: { visibility: 'private', contentType: 'image/webp' } })
    expect(Date.parse(body.expiresAt) - h.clock.now().getTime()).toBe(60 * 60_000)
    const file = await h.fetch(body.url)
    expect(file.status).toBe(200)
    expect(sniff(await bytesOf(file))).toBe('webp')
    await expectError(await h.fetch(body.url.split('?')[0]), 403, /private/)
    h.clock.advance(61 * 60_000)
    try {
      await expectError(await h.fetch(body.url), 403, /expired/)
    } finally {
      h.clock.advance(-61 * 60_000)
    }
  })

  it('takes expiresIn from the query or the body (the query wins), 1 to 10080 minutes', async () => {
    const lifetime = async (options: Parameters<typeof exportCall>[1]) => {
      const body = (await (await exportCall('/export/signed-url', options)).json()) as { expiresAt: string }
      return (Date.parse(body.expiresAt) - h.clock.now().getTime()) / 60_000
    }
    expect(await lifetime({ query: '?expiresIn=5' })).toBe(5)
    expect(await lifetime({ body: { expiresIn: 1 } })).toBe(1)
    expect(await lifetime({ query: '?expiresIn=10080', body: { expiresIn: 7 } })).toBe(10080)
  })

  it('defaults to png', async () => {
    const body = (await (await exportCall('/export/signed-url')).json()) as Record<string, any>
    expect(body.format).toBe('png')
    expect(sniff(await bytesOf(await h.fetch(body.url)))).toBe('png')
  })
})

describe('draft (owner only; ignored without a draft)', () => {
  let both: string
  let draftOnly: string

  beforeAll(async () => {
    both = await idOf(await h.createDesign(user))
    const record = (await h.designs.get(both))!
    await h.designs.update({ ...record, draft: DRAFT, updatedAt: h.clock.now().toISOString() })
    draftOnly = await idOf(await h.createDesign(user, DRAFT, { draftOnly: true }))
  })

  it.each(ENDPOINTS)('%s: draft=true (query or body) exports the draft; without it or false, the published version', async (suffix) => {
    const size = async (options: Parameters<typeof exportCall>[1], source: string) => {
      const response = await exportCall(suffix, { design: both, ...options })
      expect(response.headers.get('x-litho-source')).toBe(source)
      return pngSize(await exportedBytes(response))
    }
    expect(await size({ query: '?draft=true' }, 'draft')).toEqual([320, 200])
    expect(await size({ query: '?draft=1' }, 'draft')).toEqual([320, 200])
    expect(await size({ body: { draft: true } }, 'draft')).toEqual([320, 200])
    expect(await size({}, 'published')).toEqual([240, 160])
    expect(await size({ query: '?draft=false' }, 'published')).toEqual([240, 160])
    expect(await size({ query: '?draft=0', body: { draft: true } }, 'published')).toEqual([240, 160])
  })

  it('draft=true is ignored when the design has no draft', async () => {
    const response = await exportCall('/export', { query: '?draft=true' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-source')).toBe('published')
    expect(pngSize(await bytesOf(response))).toEqual([240, 160])
  })

  it.each(ENDPOINTS)('%s: a design never published is 404 saying to pass draft=true, and costs nothing; with draft=true it exports', async (suffix) => {
    const before = await usage()
    await expectError(await exportCall(suffix, { design: draftOnly }), 404, new RegExp(`^design "${draftOnly}" is not published; pass draft=true to export its draft$`))
    await expectError(await exportCall(suffix, { design: draftOnly, query: '?draft=false' }), 404, /not published/)
    expect(await usage()).toBe(before)
    const response = await exportCall(suffix, { design: draftOnly, query: '?draft=true' })
    expect(pngSize(await exportedBytes(response))).toEqual([320, 200])
  })

  it.each([['?draft=yes', undefined], ['', { draft: 'true' }], ['?draft=true&draft=false', undefined]])('a draft that is not a boolean (%s %j) is a 400 naming draft', async (query, body) => {
    const response = await exportCall('/export', { design: both, query, body })
    const error = await expectError(response, 400, /^draft: expected/)
    expect(error.code).toBe('ERR_INVALID_REQUEST')
  })
})

describe('bad input: 400 or 404, never metered', () => {
  let other: UserRecord
  let theirs: string
  let code: string

  beforeAll(async () => {
    other = await h.createUser('pro', PASSWORD)
    theirs = await idOf(await h.createDesign(other))
    code = (await h.designs.get(id))!.renderCode
  })

  const CASES: Array<[name: string, options: Parameters<typeof exportCall>[1], status: number, message: RegExp]> = [
    ['an unknown design', { design: 'd_missing' }, 404, /^no design has the id "d_missing"/],
    ['an id outside the alphabet', { design: 'd%20x' }, 404, /^no design has the id/],
    ['a render code instead of the _id', {}, 404, /^no design has the id/],
    ["another user's design", {}, 404, /^no design has the id/],
    ['format=gif', { query: '?format=gif' }, 400, /^format: expected one of png, jpeg, webp, pdf, received "gif"/],
    ['a bad format in the body', { body: { format: 'tiff' } }, 400, /^format: expected one of png, jpeg, webp, pdf, received "tiff"/],
    ['quality=0', { query: '?quality=0' }, 400, /^quality: expected a whole number from 1 to 100, received 0/],
    ['quality=101', { query: '?quality=101' }, 400, /^quality: expected a whole number from 1 to 100, received 101/],
    ['quality 101 in the body', { body: { quality: 101 } }, 400, /^quality: expected a whole number from 1 to 100, received 101/],
    ['an unknown variation', { query: '?variation=story' }, 400, /unknown variation "story"; available: master, square/],
    ['expiresIn=0', { query: '?expiresIn=0' }, 400, /^expiresIn: expected a whole number from 1 to 10080, received 0/],
    ['expiresIn=10081', { query: '?expiresIn=10081' }, 400, /^expiresIn: expected a whole number from 1 to 10080, received 10081/],
    ['expiresIn 10081 in the body', { body: { expiresIn: 10081 } }, 400, /^expiresIn: /],
    ['a body that is not JSON', { body: '{"title.text": ' }, 400, /^body: expected JSON/],
    ['a JSON array body', { body: [1, 2] }, 400, /^body: expected a JSON object of overrides and parameters, received an array/],
    ['a JSON string body', { body: '"text"' }, 400, /^body: expected a JSON object/],
    ['an override invalid for its field', { body: { 'title.color': 'not-a-colour' } }, 400, /title\.color/],
  ]

  for (const [suffix] of ENDPOINTS) {
    it.each(CASES)(`${suffix}: %s`, async (name, options, status, message) => {
      const design = name.startsWith('a render code') ? code : name.startsWith('another') ? theirs : options!.design
      const before = [await usage(), await usage(other)]
      const body = await expectError(await exportCall(suffix, { ...options, design }), status, message)
      expect(body.code).toBe(status === 404 ? 'ERR_DESIGN_NOT_FOUND' : name.includes('override') ? 'ERR_INVALID_OVERRIDE' : name.includes('variation') ? 'ERR_UNKNOWN_VARIATION' : 'ERR_INVALID_REQUEST')
      if (name.includes('variation')) expect(body.available).toEqual(['master', 'square'])
      expect([await usage(), await usage(other)]).toEqual(before)
    })
  }

  it('lists every bad parameter at once', async () => {
    const body = await expectError(await exportCall('/export', { query: '?format=gif', body: { quality: 0 } }), 400, /format: .*; quality: /)
    expect((body.issues as Array<{ path: string }>).map((i) => i.path)).toEqual(['format', 'quality'])
  })

  it.each(ENDPOINTS)('%s: a body over 2 MiB is a 413', async (suffix) => {
    await expectError(await exportCall(suffix, { body: JSON.stringify({ 'title.text': 'x'.repeat(3 * 1024 * 1024) }) }), 413, /^body: the body is larger than 2097152 bytes/)
  })

  it("the other user's design does export for its owner", async () => {
    const response = await exportCall('/export', { design: theirs, token: await accessToken(other) })
    expect(response.status).toBe(200)
  })
})

describe('bearer auth and CORS', () => {
  it.each(ENDPOINTS)('%s: no token is a 401 with a challenge, and costs nothing', async (suffix) => {
    const before = await usage()
    const response = await exportCall(suffix, { token: null, headers: { origin: 'https://app.example' } })
    await expectError(response, 401, /^missing credentials/)
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RENDER_URL}/.well-known/oauth-protected-resource", scope="read write"`)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await usage()).toBe(before)
  })

  it.each(ENDPOINTS)('%s: an invalid token is a 401', async (suffix) => {
    const response = await exportCall(suffix, { token: 'not-a-token' })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
  })

  it.each(ENDPOINTS)('%s: a read-only token is a 403 insufficient_scope, and costs nothing', async (suffix) => {
    const before = await usage()
    const response = await exportCall(suffix, { token: readToken })
    const body = await expectError(response, 403, /insufficient scope/)
    expect(body.code).toBe('ERR_INSUFFICIENT_SCOPE')
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="read write"/)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await usage()).toBe(before)
  })

  it.each(ENDPOINTS)('%s: answers a CORS preflight with 204, without a token', async (suffix) => {
    const response = await api(`/designs/v2/${id}${suffix}`, undefined, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toContain('POST')
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    expect(response.headers.get('www-authenticate')).toBeNull()
  })

  it.each(ENDPOINTS)('%s: errors carry the CORS headers too', async (suffix) => {
    const response = await exportCall(suffix, { design: 'd_missing', headers: { origin: 'https://app.example' } })
    expect(response.status).toBe(404)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/)
  })
})

describe('metering: refunded on failure, 429 when used up', () => {
  it.each(ENDPOINTS)('%s: at the limit, a 429 with the QuotaError body; nothing rendered or stored', async (suffix) => {
    const free = await h.createUser('free', PASSWORD)
    const freeToken = await accessToken(free)
    const design = await idOf(await h.createDesign(free))
    await h.meter.consume({ subject: free.id, window: WINDOW, amount: 99, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const last = await exportCall(suffix, { design, token: freeToken })
    expect(last.status).toBe(200)
    expect(last.headers.get('x-quota-remaining')).toBe('0')
    const puts: string[] = []
    const original = h.files.put.bind(h.files)
    h.files.put = async (...args) => (puts.push(args[0]), original(...args))
    try {
      const refused = await exportCall(suffix, { design, token: freeToken })
      const body = await expectError(refused, 429, /quota of the free plan \(100 a month\) is used up/)
      expect(body.data).toEqual({ usage: 100, limit: 100, remaining: 0, resetAt: '2026-12-01T00:00:00.000Z' })
      expect(refused.headers.get('retry-after')).toBe(String(7.5 * 24 * 3600))
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      expect(puts).toEqual([])
    } finally {
      h.files.put = original
    }
    expect(await usage(free)).toBe(100)
  })

  it.each(ENDPOINTS)('%s: a render that fails after consuming (a remote image refused: 422) is refunded', async (suffix) => {
    const before = await usage()
    await expectError(await exportCall(suffix, { body: { 'photo.src': 'http://127.0.0.1:9/photo.png' } }), 422, /photo/)
    expect(await usage()).toBe(before)
  })

  it.each(['/export/driver-upload', '/export/signed-url'])('%s: a storage failure is a 503, refunded', async (suffix) => {
    const before = await usage()
    const original = h.files.put
    h.files.put = async () => {
      throw new Error('disk full')
    }
    try {
      const response = await exportCall(suffix)
      await expectError(response, 503, /could not store the render: disk full/)
      expect(response.headers.get('retry-after')).toBe('2')
    } finally {
      h.files.put = original
    }
    expect(await usage()).toBe(before)
  })

  describe('with a renderer that always fails', () => {
    let failing: Harness
    const helpers = oauthHelpers(() => failing)
    let owner: UserRecord
    let ownerToken: string
    let design: string
    const renderer: Renderer = {
      render: async () => {
        throw new LithoError('ERR_RENDER_FAILED', 'boom')
      },
      close: async () => {},
    }

    beforeAll(async () => {
      failing = await createHarness({ withOAuth: {}, renderer })
      owner = await failing.createUser('free', PASSWORD)
      ownerToken = await helpers.accessToken(owner)
      design = await idOf(await failing.createDesign(owner), failing)
    })
    afterAll(() => failing.close())

    it.each(ENDPOINTS)('%s: a 500 naming the failure, and usage unchanged', async (suffix) => {
      const response = await helpers.api(`/designs/v2/${design}${suffix}`, ownerToken, { method: 'POST' })
      const body = await expectError(response, 500, /^render failed: boom$/)
      expect(body.code).toBe('ERR_RENDER_FAILED')
      expect(await failing.meter.usage({ subject: owner.id, window: WINDOW })).toBe(0)
    })

    it('even after many failures: each refunded exactly once', async () => {
      for (let i = 0; i < 5; i++) expect((await helpers.api(`/designs/v2/${design}/export`, ownerToken, { method: 'POST' })).status).toBe(500)
      expect(await failing.meter.usage({ subject: owner.id, window: WINDOW })).toBe(0)
      const history = await failing.meter.history({ subject: owner.id, from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') })
      expect(history).toEqual([])
    })
  })
})
