// POST {render_url}/bulk (docs/http-reference.md): render key, errors, limits, all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

const bulk = (body: unknown, options: { query?: string; headers?: Record<string, string> } = {}) =>
  h.fetch(`/bulk${options.query ?? ''}`, {
    method: 'POST',
    headers: options.headers ?? { 'dma-api-key': key, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const usage = (subject = user.id) => h.meter.usage({ subject, window: WINDOW })

describe('bulk', () => {
  it('renders every item in order: results[i] is items[i], with a summary; hosted by default', async () => {
    const before = await usage()
    const response = await bulk({
      items: [
        { designId: code, filename: 'slide-1.jpg', overrides: { 'title.text': 'One' } },
        { designId: code, filename: 'slide-2.png', format: 'png', variation: 'square', overrides: { title: { text: 'Two' } } },
        { designId: code, format: 'webp', quality: 50 },
      ],
    })
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('x-quota-remaining'))).toBe(10_000 - before - 3)
    const body = (await response.json()) as { success: boolean; results: Array<Record<string, any>>; summary: unknown }
    expect(body.success).toBe(true)
    expect(body.summary).toEqual({ total: 3, succeeded: 3, failed: 0 })
    expect(body.results.map((r) => [r.index, r.designId, r.format, r.variation, r.delivery, r.success])).toEqual([
      [0, code, 'jpeg', 'master', 'hosted', true],
      [1, code, 'png', 'square', 'hosted', true],
      [2, code, 'webp', 'master', 'hosted', true],
    ])
    expect(body.results[0]!.filename).toBe('slide-1.jpg')
    expect(body.results[1]!.filename).toBe('slide-2.png')
    expect(body.results[2]!.filename).toMatch(/\.webp$/)
    for (const row of body.results) {
      expect(row.expiresAt).toBeUndefined()
      expect(row.warnings).toEqual([])
      const file = await h.fetch(row.url)
      expect(file.status).toBe(200)
      expect(sniff(new Uint8Array(await file.arrayBuffer()))).toBe(row.format)
    }
    expect(await usage()).toBe(before + 3)
  })

  it('uses the request format for items without one, and jpeg when neither gives one', async () => {
    const withDefault = (await (await bulk({ format: 'png', items: [{ designId: code }, { designId: code, format: 'pdf' }] })).json()) as any
    expect(withDefault.results.map((r: any) => r.format)).toEqual(['png', 'pdf'])
    const without = (await (await bulk({ items: [{ designId: code }] })).json()) as any
    expect(without.results[0].format).toBe('jpeg')
    expect(without.results[0].file.contentType).toBe('image/jpeg')
  })

  it('signed delivery: every row has a private file, a signed URL and expiresAt (expiresIn applies)', async () => {
    const body = (await (await bulk({ delivery: 'signed', expiresIn: 15, items: [{ designId: code }, { designId: code }] })).json()) as any
    for (const row of body.results) {
      expect(row).toMatchObject({ success: true, delivery: 'signed', file: { visibility: 'private' } })
      expect(Date.parse(row.expiresAt) - h.clock.now().getTime()).toBe(15 * 60_000)
      expect((await h.fetch(row.url)).status).toBe(200)
      expect((await h.fetch(row.url.split('?')[0])).status).toBe(403)
    }
  })

  it('a failed item does not abort the others; it is not metered; rows carry error and warnings', async () => {
    const before = await usage()
    const response = await bulk({
      items: [
        { designId: code, overrides: { title: 'bare' } },
        { designId: 'AAAAAAAAAAAAAAAAAAAAAA' },
        { designId: code, variation: 'story' },
        { designId: code, overrides: { 'photo.src': 'http://127.0.0.1:9/photo.png' } },
        { designId: code },
      ],
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as any
    expect(body.success).toBe(false)
    expect(body.summary).toEqual({ total: 5, succeeded: 2, failed: 3 })
    expect(body.results.map((r: any) => r.success)).toEqual([true, false, false, false, true])
    expect(body.results[0].warnings).toEqual([expect.stringMatching(/"title" is a bare component key/)])
    expect(body.results[1].error).toMatch(/no published design has the render code/)
    expect(body.results[1].url).toBeUndefined()
    expect(body.results[2].error).toMatch(/unknown variation "story"/)
    expect(body.results[3].error).toMatch(/photo/)
    // Two renders, plus one consumed and refunded for the image that failed.
    expect(await usage()).toBe(before + 2)
  })

  it('takes the render key from the dma-api-key query parameter too', async () => {
    const response = await bulk({ items: [{ designId: code }] }, { query: `?dma-api-key=${key}`, headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(200)
  })

  it.each([
    ['no key', {}, '', /^missing render key/],
    ['a bad key', { 'dma-api-key': 'lk_nope' }, '', /^invalid render key/],
    ['the key as ?key= (GET only)', {}, '?key=KEY', /^missing render key/],
  ])('401 with %s', async (_label, headers, query, message) => {
    await expectError(await bulk({ items: [{ designId: code }] }, { headers: headers as Record<string, string>, query: query.replace('KEY', key) }), 401, message)
  })

  it.each([
    ['no items', { items: [] }, /^items: expected 1 to 25 items, received 0/],
    ['26 items', { items: Array.from({ length: 26 }, () => ({ designId: 'x' })) }, /^items: expected 1 to 25 items, received 26/],
    ['no items field', { format: 'png' }, /^items: expected an array of 1 to 25 items, received nothing/],
    ['an item without designId', { items: [{ designId: 'x' }, { format: 'png' }] }, /^items\[1\]\.designId: expected a design render code, received nothing/],
    ['an unknown item format', { items: [{ designId: 'x', format: 'gif' }] }, /^items\[0\]\.format: expected one of png, jpeg, webp, pdf/],
    ['item quality 0', { items: [{ designId: 'x', quality: 0 }] }, /^items\[0\]\.quality: expected a whole number from 1 to 100, received 0/],
    ['request quality 101', { quality: 101, items: [{ designId: 'x' }] }, /^quality: expected a whole number from 1 to 100, received 101/],
    ['expiresIn 0', { delivery: 'signed', expiresIn: 0, items: [{ designId: 'x' }] }, /^expiresIn: expected a whole number from 1 to 10080, received 0/],
    ['expiresIn 10081', { delivery: 'signed', expiresIn: 10081, items: [{ designId: 'x' }] }, /^expiresIn: expected a whole number from 1 to 10080, received 10081/],
    ['delivery stream', { delivery: 'stream', items: [{ designId: 'x' }] }, /^delivery: expected one of hosted, signed, received "stream"/],
    ['overrides that are not an object', { items: [{ designId: 'x', overrides: 'title.text=x' }] }, /^items\[0\]\.overrides: expected an object/],
    ['a body that is an array', [{ designId: 'x' }], /expected a JSON object with "items", received an array/],
  ])('400 for %s, naming the field; nothing metered', async (_label, body, message) => {
    const before = await usage()
    await expectError(await bulk(body), 400, message)
    expect(await usage()).toBe(before)
  })

  it('400 for a body that is not JSON, and for no body', async () => {
    await expectError(await bulk('{"items": ['), 400, /^body: expected JSON/)
    await expectError(await h.fetch('/bulk', { method: 'POST', headers: { 'dma-api-key': key } }), 400, /^body: expected a JSON object with "items", received an empty body/)
  })

  it('413 for an oversized body', async () => {
    await expectError(await bulk({ items: [{ designId: code, overrides: { 'title.text': 'x'.repeat(3 * 1024 * 1024) } }] }), 413, /larger than/)
  })

  it('429 when the quota cannot cover every item: nothing is rendered or kept', async () => {
    const free = await h.createUser('free')
    const freeKey = await h.createKey(free)
    const freeCode = await h.createDesign(free)
    await h.meter.consume({ subject: free.id, window: WINDOW, amount: 98, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const items = [{ designId: freeCode }, { designId: freeCode }, { designId: freeCode }]
    const refused = await bulk({ items }, { headers: { 'dma-api-key': freeKey, 'content-type': 'application/json' } })
    const body = await expectError(refused, 429, /cannot cover 3 renders \(2 left\)/)
    expect(body.data).toEqual({ usage: 98, limit: 100, remaining: 2, resetAt: '2026-12-01T00:00:00.000Z' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await usage(free.id)).toBe(98)
    // Two items fit exactly.
    const fits = await bulk({ items: items.slice(1) }, { headers: { 'dma-api-key': freeKey, 'content-type': 'application/json' } })
    expect(fits.status).toBe(200)
    expect(await usage(free.id)).toBe(100)
  })

  it('renders a carousel of 25 slides of one design, in slide order', async () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ designId: code, filename: `slide-${i + 1}.png`, format: 'png', overrides: { 'title.text': `Slide ${i + 1}` } }))
    const body = (await (await bulk({ items })).json()) as any
    expect(body.summary).toEqual({ total: 25, succeeded: 25, failed: 0 })
    expect(body.results.map((r: any) => r.filename)).toEqual(items.map((i) => i.filename))
    expect(new Set(body.results.map((r: any) => r.url)).size).toBe(25)
  })
})
