// renderer.ready(): the in-process renderer warms up at start-up (render/warm-up), so that the
// first request does not pay for loading and compiling the render stack.
import { describe, expect, it } from 'vitest'
import { createRenderer, validateDesign } from '../../src/index.js'
import { WARM_UP_DESIGN } from '../../src/render/warm-up.js'
import { referenceDesigns } from '../../../testing/src/index.js'

describe('createRenderer().ready()', () => {
  it('resolves, and a second call (or one while it runs) gets the same promise', async () => {
    const renderer = createRenderer()
    const first = renderer.ready()
    expect(renderer.ready()).toBe(first)
    await expect(first).resolves.toBeUndefined()
    expect(renderer.ready()).toBe(first)
    await renderer.close()
  }, 60_000)

  it('changes no byte of what renders next (same card, with and without a warm-up)', async () => {
    const { card1080 } = await referenceDesigns()
    const options = { format: 'jpeg' as const, overrides: { 'title.text': 'The same headline, warm or cold' } }
    const cold = createRenderer()
    const warm = createRenderer()
    await warm.ready()
    const [a, b] = [await cold.render(card1080, options), await warm.render(card1080, options)]
    expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(true)
    expect(b.warnings).toEqual(a.warnings)
    await Promise.all([cold.close(), warm.close()])
  }, 60_000)

  it('warms up with a valid design that has the components of a typical card', () => {
    expect(() => validateDesign(WARM_UP_DESIGN)).not.toThrow()
    expect(new Set(WARM_UP_DESIGN.components.map((c) => c.type))).toEqual(new Set(['image', 'text', 'qrcode']))
  })
})
