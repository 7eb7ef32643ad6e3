// The render endpoints (docs/http-reference.md: GET and POST {render_url}/v1/{design_id}), render-key
// auth, their errors and limits, against the app in-process on memory stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLANS, meterStorage } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { createFixture, expectError, sniff, WINDOW, type Harness } from './_harness.js'

let h: Harness
let user: UserRecord
let key: string
let code: string

beforeAll(async () => {
  ;({ h, user, key, code } = await createFixture())
})
afterAll(() => h.close())

const get = (query = '', headers: Record<string, string> = { 'dma-api-key': key }, renderCode = code) => h.fetch(`/v1/${renderCode}${query}`, { headers })
const post = (body: unknown, query = '', headers: Record<string, string> = { 'dma-api-key': key, 'content-type': 'application/json' }) =>
  h.fetch(`/v1/${code}${query}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
const usage = () => h.meter.usage({ subject: user.id, window: WINDOW })
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())

describe('GET render', () => {
  it('renders jpeg by default, with its content type and the quota headers', async () => {
    const response = await get()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(sniff(await bytesOf(response))).toBe('jpeg')
    expect(response.headers.get('x-quota-limit')).toBe('10000')
    expect(Number(response.headers.get('x-quota-remaining'))).toBe(10_000 - (await usage()))
    expect(response.headers.get('x-quota-reset')).toBe('2026-12-01T00:00:00.000Z')
  })

  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['pdf', 'application/pdf'],
  ])('format=%s returns %s', async (format, contentType) => {
    const response = await get(`?format=${format}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(contentType)
    expect(sniff(await bytesOf(response))).toBe(format)
  })

  it('applies query overrides (dot paths) and reports ignored keys in a header', async () => {
    const plain = await bytesOf(await get('?format=png'))
    const response = await get('?format=png&title.text=Changed&title=bare&nope.text=x')
    expect(response.status).toBe(200)
    expect(Buffer.compare(Buffer.from(await bytesOf(response)), Buffer.from(plain))).not.toBe(0)
    expect(response.headers.get('x-litho-ignored-overrides')!.split(',').sort()).toEqual(['nope.text', 'title'])
    expect(response.headers.get('x-litho-warnings')).toBe('2')
  })

  it('renders a variation at its size', async () => {
    const response = await get('?format=png&variation=square')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-variation')).toBe('square')
    const png = Buffer.from(await bytesOf(response))
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([160, 160])
  })

  it.each([['dma-api-key'], ['key'], ['api-key']])('accepts the render key in the query as %s', async (name) => {
    const response = await get(`?${name}=${key}`, {})
    expect(response.status).toBe(200)
  })

  it('never takes the render key for an override', async () => {
    const response = await get(`?key=${key}&format=png`, {})
    expect(response.headers.get('x-litho-ignored-overrides')).toBeNull()
  })
})

describe('POST render', () => {
  it('applies a JSON body of overrides (nested and dot paths)', async () => {
    const plain = await bytesOf(await get('?format=png'))
    const response = await post({ title: { text: 'From body' }, 'badge.fill': '#22c55e' }, '?format=png')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(Buffer.compare(Buffer.from(await bytesOf(response)), Buffer.from(plain))).not.toBe(0)
  })

  it('accepts no body at all', async () => {
    const response = await h.fetch(`/v1/${code}`, { method: 'POST', headers: { 'dma-api-key': key } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/jpeg')
  })

  it('takes format and variation from the body too; the query wins', async () => {
    const fromBody = await post({ format: 'webp', variation: 'square' })
    expect(fromBody.headers.get('content-type')).toBe('image/webp')
    expect(fromBody.headers.get('x-litho-variation')).toBe('square')
    const queryWins = await post({ format: 'webp' }, '?format=png')
    expect(queryWins.headers.get('content-type')).toBe('image/png')
  })

  it('reports reserved and bare body keys as ignored', async () => {
    const response = await post({ draft: true, title: 'bare', 'title.text': 'ok' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-ignored-overrides')!.split(',').sort()).toEqual(['draft', 'title'])
  })

  it('stores nothing for stream delivery', async () => {
    const puts: string[] = []
    const original = h.files.put.bind(h.files)
    h.files.put = async (...args) => (puts.push(args[0]), original(...args))
    try {
      expect((await post({ 'title.text': 'x' })).status).toBe(200)
      expect(puts).toEqual([])
    } finally {
      h.files.put = original
    }
  })

  it('refuses the render key in the query (header only): 401 saying so', async () => {
    await expectError(await post({}, `?dma-api-key=${key}`, { 'content-type': 'application/json' }), 401, /header only/)
  })

  it('refuses a body that is not JSON: 400 naming the body', async () => {
    await expectError(await post('{"title.text": ', ''), 400, /^body: expected JSON/)
  })

  it('refuses a JSON body that is not an object: 400', async () => {
    await expectError(await post([1, 2]), 400, /^body: expected a JSON object of overrides, received an array/)
    await expectError(await post('"text"'), 400, /^body: expected a JSON object/)
  })

  it('refuses an oversized body with 413, before reading it all', async () => {
    const big = JSON.stringify({ 'title.text': 'x'.repeat(3 * 1024 * 1024) })
    await expectError(await post(big), 413, /^body: the body is larger than 2097152 bytes/)
  })

  it('refuses an override value invalid for its field: 400 naming the key, not metered', async () => {
    const before = await usage()
    await expectError(await post({ 'title.color': 'not-a-colour' }), 400, /title\.color/)
    expect(await usage()).toBe(before)
  })
})

describe('render parameters (shared query parameters, limits)', () => {
  it.each([
    ['?format=gif', /^format: expected one of png, jpeg, webp, pdf, received "gif"/],
    ['?quality=0', /^quality: expected a whole number from 1 to 100, received 0/],
    ['?quality=101', /^quality: expected a whole number from 1 to 100, received 101/],
    ['?quality=high', /^quality: expected a whole number from 1 to 100, received "high"/],
    ['?quality=80.5', /^quality: expected a whole number from 1 to 100, received 80.5/],
    ['?expiresIn=0&delivery=signed', /^expiresIn: expected a whole number from 1 to 10080, received 0/],
    ['?expiresIn=10081&delivery=signed', /^expiresIn: expected a whole number from 1 to 10080, received 10081/],
    ['?delivery=email', /^delivery: expected one of stream, hosted, signed, received "email"/],
    ['?format=png&format=jpeg', /^format: expected one value, received 2/],
  ])('GET %s is a 400 naming the parameter, and costs nothing', async (query, message) => {
    const before = await usage()
    const body = await expectError(await get(query), 400, message)
    expect(body.code).toBe('ERR_INVALID_REQUEST')
    expect(await usage()).toBe(before)
  })

  it('lists every bad parameter at once', async () => {
    const body = await expectError(await get('?format=gif&quality=0'), 400, /format: .*; quality: /)
    expect((body.issues as Array<{ path: string }>).map((i) => i.path)).toEqual(['format', 'quality'])
  })

  it('an unknown variation is a 400 listing the available ones, and costs nothing', async () => {
    const before = await usage()
    const body = await expectError(await get('?variation=story'), 400, /unknown variation "story"; available: master, square/)
    expect(body.available).toEqual(['master', 'square'])
    expect(await usage()).toBe(before)
  })

  it('POST validates body parameters the same way', async () => {
    await expectError(await post({ quality: 0 }), 400, /^quality: expected a whole number from 1 to 100, received 0/)
    await expectError(await post({ expiresIn: 10081 }), 400, /^expiresIn: /)
  })

  it('quality changes jpeg output only', async () => {
    const low = await bytesOf(await get('?quality=5'))
    const high = await bytesOf(await get('?quality=100'))
    expect(low.byteLength).toBeLessThan(high.byteLength)
  })
})

describe('render-key auth and not found', () => {
  it('no key: 401', async () => {
    await expectError(await get('', {}), 401, /^missing render key/)
  })
  it('a malformed or unknown key: 401', async () => {
    await expectError(await get('', { 'dma-api-key': 'nope' }), 401, /^invalid render key/)
    await expectError(await get('', { 'dma-api-key': `lk_${'A'.repeat(32)}` }), 401, /^invalid render key/)
  })
  it('a deactivated key: 401', async () => {
    const inactive = await h.createKey(user, { active: false })
    await expectError(await get('', { 'dma-api-key': inactive }), 401, /^invalid render key/)
  })
  it('an unknown design: 404, not metered', async () => {
    const before = await usage()
    await expectError(await get('', undefined, 'AAAAAAAAAAAAAAAAAAAAAA'), 404, /no published design has the render code "AAAAAAAAAAAAAAAAAAAAAA"/)
    expect(await usage()).toBe(before)
  })
  it("another account's design: 404 (render codes do not cross accounts)", async () => {
    const other = await h.createUser()
    const theirs = await h.createDesign(other)
    await expectError(await get('', undefined, theirs), 404, /no published design/)
  })
  it("a design's _id where the render code belongs: 404 that names the render code to use, not metered", async () => {
    const code = await h.createDesign(user)
    const id = (await h.designs.getByRenderCode(code))!.id
    const before = await usage()
    await expectError(await get('', undefined, id), 404, new RegExp(`^no published design has the render code "${id}"; "${id}" is the _id of your design, not its render code: use its render code "${code}"`))
    expect(await usage()).toBe(before)
    const draft = await h.createDesign(user, undefined, { draftOnly: true })
    const draftId = (await h.designs.getByRenderCode(draft))!.id
    await expectError(await get('', undefined, draftId), 404, /is the _id of your design, which has no published version yet: publish it/)
  })
  it("another account's design _id: a plain 404 that says nothing about that design", async () => {
    const other = await h.createUser()
    const id = (await h.designs.getByRenderCode(await h.createDesign(other)))!.id
    const body = await expectError(await get('', undefined, id), 404, /^no published design has the render code "[^"]+"$/)
    expect(JSON.stringify(body)).not.toContain('_id of your design')
  })
  it('a design with only a draft: 404', async () => {
    const draft = await h.createDesign(user, undefined, { draftOnly: true })
    await expectError(await get('', undefined, draft), 404, /no published design/)
  })
})

describe('hosted and signed delivery', () => {
  it('hosted: stores the render publicly and returns its URL; anyone can fetch it', async () => {
    const response = await get('?delivery=hosted&format=png')
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, any>
    expect(body).toMatchObject({ success: true, delivery: 'hosted', format: 'png', file: { contentType: 'image/png', visibility: 'public', width: 240, height: 160, variation: 'master' } })
    expect(body.expiresAt).toBeUndefined()
    expect(body.url).toMatch(new RegExp(`^http://render\\.test/files/${user.id}/r_[A-Za-z0-9_-]+\\.png$`))
    const file = await h.fetch(body.url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('cache-control')).toContain('immutable')
    expect(sniff(await bytesOf(file))).toBe('png')
  })

  it('signed: stores it privately; the URL works until expiresAt (default 60 minutes), then 403', async () => {
    const response = await get('?delivery=signed&format=webp')
    const body = (await response.json()) as Record<string, any>
    expect(body).toMatchObject({ success: true, delivery: 'signed', format: 'webp', file: { visibility: 'private' } })
    expect(Date.parse(body.expiresAt) - h.clock.now().getTime()).toBe(60 * 60_000)
    expect((await h.fetch(body.url)).status).toBe(200)
    const unsigned = body.url.split('?')[0]
    await expectError(await h.fetch(unsigned), 403, /private/)
    h.clock.advance(61 * 60_000)
    try {
      await expectError(await h.fetch(body.url), 403, /expired/)
    } finally {
      h.clock.advance(-61 * 60_000)
    }
  })

  it('signed: expiresIn sets the lifetime', async () => {
    const body = (await (await get('?delivery=signed&expiresIn=5')).json()) as Record<string, any>
    expect(Date.parse(body.expiresAt) - h.clock.now().getTime()).toBe(5 * 60_000)
  })

  it('a signed URL cannot be altered: another path or another signature is refused', async () => {
    const a = (await (await get('?delivery=signed')).json()) as Record<string, any>
    const b = (await (await get('?delivery=signed')).json()) as Record<string, any>
    const [pathA, queryA] = a.url.split('?')
    const [pathB] = b.url.split('?')
    await expectError(await h.fetch(`${pathB}?${queryA}`), 403, /not valid/)
    await expectError(await h.fetch(`${pathA}?${queryA.replace(/sig=.{4}/, 'sig=AAAA')}`), 403, /not valid/)
    await expectError(await h.fetch(`${pathA}?${queryA.replace(/exp=\d+/, (m: string) => `exp=${Number(m.slice(4)) + 3600}`)}`), 403, /not valid/)
  })

  it('a file that does not exist is a 404', async () => {
    await expectError(await h.fetch(`/files/${user.id}/r_missing.png`), 404, /no such file/)
    expect((await h.fetch(`/files/${user.id}/%2e%2e/secrets/url-signing-key`)).status).toBe(404)
  })

  it('HEAD of a stored file gives its headers without a body', async () => {
    const body = (await (await get('?delivery=hosted')).json()) as Record<string, any>
    const head = await h.fetch(body.url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBe(body.file.size)
  })
})

describe('metering and the quota error', () => {
  it('every render costs one; at the limit: 429 with the QuotaError body and Retry-After', async () => {
    const free = await h.createUser('free')
    const freeKey = await h.createKey(free)
    const freeCode = await h.createDesign(free)
    // Use 99 of the 100 renders directly on the meter, then render the last one.
    await h.meter.consume({ subject: free.id, window: WINDOW, amount: 99, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const last = await get('', { 'dma-api-key': freeKey }, freeCode)
    expect(last.status).toBe(200)
    expect(last.headers.get('x-quota-remaining')).toBe('0')
    const refused = await get('', { 'dma-api-key': freeKey }, freeCode)
    const body = await expectError(refused, 429, /quota of the free plan \(100 a month\) is used up/)
    expect(body.data).toEqual({ usage: 100, limit: 100, remaining: 0, resetAt: '2026-12-01T00:00:00.000Z' })
    // 2026-11-23T12:00Z → 2026-12-01T00:00Z
    expect(refused.headers.get('retry-after')).toBe(String(7.5 * 24 * 3600))
    expect(await h.meter.usage({ subject: free.id, window: WINDOW })).toBe(100)
  })

  it('a refused render (429) carries X-Quota-Limit, X-Quota-Remaining and X-Quota-Reset, like a granted one; so does a refused bulk', async () => {
    const free = await h.createUser('free')
    const freeKey = await h.createKey(free)
    const freeCode = await h.createDesign(free)
    await h.meter.consume({ subject: free.id, window: WINDOW, amount: 100, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const bulk = await h.fetch('/bulk', { method: 'POST', headers: { 'dma-api-key': freeKey, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ designId: freeCode }] }) })
    for (const refused of [await get('', { 'dma-api-key': freeKey }, freeCode), bulk]) {
      expect(refused.status).toBe(429)
      expect(refused.headers.get('x-quota-limit')).toBe('100')
      expect(refused.headers.get('x-quota-remaining')).toBe('0')
      expect(refused.headers.get('x-quota-reset')).toBe('2026-12-01T00:00:00.000Z')
    }
  })

  it('a hosted or signed render past the plan\'s storage is 403 ERR_STORAGE_QUOTA with data { usage, limit }, refunded, and stores nothing', async () => {
    const free = await h.createUser('free')
    const freeKey = await h.createKey(free)
    const freeCode = await h.createDesign(free)
    // The storage is full but for 10 bytes: no render fits.
    await meterStorage(h.meter, { account: free, key: `${free.id}/old.png`, bytes: PLANS.free.storageBytes! - 10 })
    for (const delivery of ['hosted', 'signed']) {
      const refused = await get(`?delivery=${delivery}`, { 'dma-api-key': freeKey }, freeCode)
      const body = await expectError(refused, 403, /^The storage of the free plan \(500 MB of stored renders\) is full/)
      expect(body).toMatchObject({ success: false, code: 'ERR_STORAGE_QUOTA', data: { usage: PLANS.free.storageBytes! - 10, limit: PLANS.free.storageBytes } })
    }
    expect(await h.meter.usage({ subject: free.id, window: WINDOW }), 'both renders refunded').toBe(0)
    // It consumed (then refunded) a render: the quota headers say where the account stands.
    const again = await get('?delivery=hosted', { 'dma-api-key': freeKey }, freeCode)
    expect([again.status, again.headers.get('x-quota-limit'), again.headers.get('x-quota-remaining')]).toEqual([403, '100', '100'])
    // A streamed render stores nothing, so it still works.
    expect((await get('', { 'dma-api-key': freeKey }, freeCode)).status).toBe(200)
  })

  it('a render that fails after consuming is refunded (a remote image refused by the network policy: 422)', async () => {
    const before = await usage()
    const response = await get('?photo.src=http://127.0.0.1:9/photo.png')
    await expectError(response, 422, /photo/)
    expect(await usage()).toBe(before)
    // It consumed a unit (given back): the quota headers are there, as on a success.
    expect(response.headers.get('x-quota-remaining')).toBe(String(response.headers.get('x-quota-limit') === null ? null : Number(response.headers.get('x-quota-limit')) - before))
  })

  it('the window is the calendar month in UTC: a new month starts at zero', async () => {
    const monthly = await h.createUser('free')
    const monthlyKey = await h.createKey(monthly)
    const monthlyCode = await h.createDesign(monthly)
    await h.meter.consume({ subject: monthly.id, window: WINDOW, amount: 100, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    expect((await get('', { 'dma-api-key': monthlyKey }, monthlyCode)).status).toBe(429)
    h.clock.set(new Date('2026-12-01T00:00:00Z'))
    try {
      const response = await get('', { 'dma-api-key': monthlyKey }, monthlyCode)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-quota-remaining')).toBe('99')
      expect(response.headers.get('x-quota-reset')).toBe('2027-01-01T00:00:00.000Z')
    } finally {
      h.clock.set(new Date('2026-11-23T12:00:00Z'))
    }
  })
})
