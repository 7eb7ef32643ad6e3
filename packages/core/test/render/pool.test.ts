import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LithoError, createRenderPool, createRenderer, resolveDocument, type DesignDocumentInput, type RenderPool } from '../../src/index.js'
import { socialCard, worstCase } from '../../../testing/src/index.js'

// The pool loads the built worker (dist/render-worker.js): `pnpm test` builds first.
let pool: RenderPool
let card: DesignDocumentInput

beforeAll(async () => {
  pool = createRenderPool({ threads: 2 })
  card = await socialCard()
  await pool.ready()
})

afterAll(async () => {
  await pool.close()
})

describe('render pool', () => {
  it('pool › renders the same bytes as the in-process renderer', async () => {
    const inline = await createRenderer().render(card, { format: 'png' })
    const pooled = await pool.render(card, { format: 'png' })
    expect(pooled.bytes).toBeInstanceOf(Uint8Array)
    expect(Buffer.compare(Buffer.from(pooled.bytes), Buffer.from(inline.bytes))).toBe(0)
    expect(pooled.warnings).toEqual(inline.warnings)
  })

  it('pool › a render asked for its layout gets the same boxes as in-process, across the thread boundary', async () => {
    const resolved = resolveDocument(card, { overrides: { 'title.text': 'Layout' } })
    const inline = await createRenderer().renderResolved!(resolved, { format: 'png', layout: true })
    const pooled = await pool.renderResolved(resolved, { format: 'png', layout: true })
    expect(pooled.layout!.components.length).toBeGreaterThan(0)
    expect(pooled.layout).toEqual(inline.layout)
    expect((await pool.renderResolved(resolved, { format: 'png' })).layout).toBeUndefined()
  })

  it('pool › runs renders concurrently, each result matching its request', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `Render number ${i}`)
    const results = await Promise.all(texts.map((text) => pool.render(card, { format: 'jpeg', overrides: { 'title.text': text } })))
    const again = await Promise.all(texts.map((text) => pool.render(card, { format: 'jpeg', overrides: { 'title.text': text } })))
    results.forEach((r, i) => expect(Buffer.compare(Buffer.from(r.bytes), Buffer.from(again[i]!.bytes))).toBe(0))
    expect(new Set(results.map((r) => Buffer.from(r.bytes).toString('base64'))).size).toBe(6)
  })

  it('pool › large data: URIs travel as handles: fresh workers, concurrent renders, the same bytes', async () => {
    const fresh = createRenderPool({ threads: 2 })
    await fresh.ready()
    const inline = await createRenderer().render(card, { format: 'jpeg', overrides: { 'title.text': 'Handles' } })
    // Four at once on two workers that hold nothing yet: each asks for the photo once.
    const pooled = await Promise.all(Array.from({ length: 4 }, () => fresh.render(card, { format: 'jpeg', overrides: { 'title.text': 'Handles' } })))
    await fresh.close()
    for (const result of pooled) expect(Buffer.compare(Buffer.from(result.bytes), Buffer.from(inline.bytes))).toBe(0)
  })

  it('pool › a bad large data: URI fails as it does in-process (code, message, details)', async () => {
    const withSrc = (src: string) => ({ version: 2, width: 100, height: 100, components: [{ type: 'image', key: 'photo', width: 50, height: 50, src }] })
    const notAnImage = `data:image/png;base64,${Buffer.from('x'.repeat(20_000)).toString('base64')}`
    for (const src of [`data:image/png;base64,${'!'.repeat(20_000)}`, notAnImage]) {
      const inline = (await createRenderer().render(withSrc(src)).catch((e: unknown) => e)) as LithoError
      const pooled = (await pool.render(withSrc(src)).catch((e: unknown) => e)) as LithoError
      expect(LithoError.isInstance(pooled)).toBe(true)
      expect([pooled.code, pooled.message, pooled.details]).toEqual([inline.code, inline.message, inline.details])
    }
  })

  it('pool › errors cross the thread boundary with their code and issues', async () => {
    const error = await pool.render({ version: 2, width: 0, height: 10 }).catch((e: unknown) => e)
    expect(LithoError.isInstance(error)).toBe(true)
    expect((error as LithoError).code).toBe('ERR_INVALID_DESIGN')
    expect((error as LithoError).issues[0]?.path).toBe('width')
  })

  it('pool › keeps the calling thread responsive during a large render', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    const started = performance.now()
    await pool.render(await worstCase(), { format: 'jpeg' })
    const elapsed = performance.now() - started
    clearInterval(timer)
    // A blocked event loop would tick about once; a free one ticks about every 5 ms.
    expect(ticks).toBeGreaterThan(Math.min(10, elapsed / 20))
  })

  it('pool › a full queue is refused with ERR_RENDER_BUSY, not queued without bound', async () => {
    const small = createRenderPool({ threads: 1, maxQueue: 1 })
    await small.ready()
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => small.render(card, { format: 'png' })))
    await small.close()
    const busy = outcomes.filter((o) => o.status === 'rejected' && LithoError.isInstance(o.reason) && o.reason.code === 'ERR_RENDER_BUSY')
    expect(busy.length).toBeGreaterThanOrEqual(3)
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(1)
  })
})
