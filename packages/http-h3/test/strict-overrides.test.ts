// Strict overrides (docs/overrides-and-variations.md): `strict=true` (query), `"strict": true`
// (body) or the server default turns an override key that names nothing into a 400 that names
// each key with the closest existing `component.field`; without it the render goes on and the
// headers say what was ignored and what was probably meant. A refusal costs no quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { createFixture, createHarness, WINDOW, type Harness } from './_harness.js'

let h: Harness
let user: UserRecord
let key: string
let code: string
beforeAll(async () => {
  ;({ h, user, key, code } = await createFixture())
})
afterAll(() => h.close())

const usage = (harness = h, who = user) => harness.meter.usage({ subject: who.id, window: WINDOW })
const get = (query: string, harness = h, k = key, c = code) => harness.fetch(`/v1/${c}${query}`, { headers: { 'dma-api-key': k } })
const post = (body: unknown, query = '') => h.fetch(`/v1/${code}${query}`, { method: 'POST', headers: { 'dma-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('strict overrides', () => {
  it('strict › without strict, a typo renders and the headers name the ignored key and the key meant', async () => {
    const response = await get('?format=png&titel.text=Hi&nothing.here=x')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-ignored-overrides')).toBe('titel.text,nothing.here')
    expect(response.headers.get('x-litho-override-suggestions')).toBe('titel.text=title.text')
  })

  it.each(['true', '1', 'TRUE'])('strict › strict=%s refuses the typo with 400, "did you mean", the valid keys, and no quota spent', async (value) => {
    const before = await usage()
    const response = await get(`?strict=${value}&titel.text=Hi&nothing.here=x&title.color=%23ff0000`)
    expect(response.status).toBe(400)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ success: false, code: 'ERR_INVALID_OVERRIDE', unknown: [{ key: 'titel.text', suggestion: 'title.text' }, { key: 'nothing.here' }], valid: ['title.text', 'title.color', 'badge.fill', 'photo.src'] })
    expect(body.message).toContain('titel.text: no component has the key "titel"; did you mean "title.text"?')
    expect(body.message).toContain('valid keys: title.text, title.color, badge.fill, photo.src')
    expect(await usage()).toBe(before)
  })

  it('strict › strict=true with only valid keys renders', async () => {
    expect((await get('?strict=true&title.text=Hi')).status).toBe(200)
  })

  it('strict › a POST body says "strict": true; strict must be a boolean (a JSON string is refused, naming strict)', async () => {
    const refused = await post({ strict: true, 'titel.text': 'Hi' })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { unknown: unknown }).unknown).toEqual([{ key: 'titel.text', suggestion: 'title.text' }])
    const wrongType = await post({ strict: 'true', 'title.text': 'Hi' })
    expect(wrongType.status).toBe(400)
    expect(((await wrongType.json()) as { message: string }).message).toMatch(/^strict: expected true or false/)
    expect((await get('?strict=yes')).status).toBe(400)
  })

  it('strict › bulk with strict fails only the item with the typo, on its row, unmetered', async () => {
    const response = await h.fetch('/bulk', {
      method: 'POST',
      headers: { 'dma-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ strict: true, format: 'png', items: [{ designId: code, overrides: { 'title.text': 'ok' } }, { designId: code, overrides: { 'titel.text': 'typo' } }] }),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { summary: { succeeded: number; failed: number }; results: Array<{ success: boolean; error?: string }> }
    expect(body.summary).toMatchObject({ succeeded: 1, failed: 1 })
    expect(body.results[1]!.error).toContain('did you mean "title.text"?')
  })

  it('strict › the server default (strictOverrides, LITHO_STRICT_OVERRIDES=1) refuses typos unless the request says strict=false', async () => {
    const strictServer = await createHarness({ strictOverrides: true })
    try {
      const owner = await strictServer.createUser('pro')
      const ownKey = await strictServer.createKey(owner)
      const ownCode = await strictServer.createDesign(owner)
      expect((await get('?titel.text=Hi', strictServer, ownKey, ownCode)).status).toBe(400)
      const lax = await get('?strict=false&titel.text=Hi', strictServer, ownKey, ownCode)
      expect(lax.status).toBe(200)
      expect(lax.headers.get('x-litho-override-suggestions')).toBe('titel.text=title.text')
    } finally {
      await strictServer.close()
    }
  })
})
