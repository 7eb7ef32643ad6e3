// Without @litho/fonts-cjk, CJK text still renders: its characters are empty boxes, and the
// missing_glyphs warning names the package to install (docs/fonts-and-images.md).
import { describe, expect, it, vi } from 'vitest'
import { createRenderer, type DesignDocumentInput } from '../../../src/index.js'

vi.mock('../../../src/render/fonts/cjk-fonts.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/render/fonts/cjk-fonts.js')>()),
  loadCjkFamilies: async () => [],
}))

const design = (text: string): DesignDocumentInput => ({
  version: 2,
  width: 320,
  height: 80,
  background: '#ffffff',
  components: [{ type: 'text', key: 'title', x: 10, y: 10, width: 300, height: 60, text, fontSize: 24 }],
})

describe('without @litho/fonts-cjk', () => {
  const renderer = createRenderer()

  it('cjk fonts › CJK text renders as boxes with a warning that names @litho/fonts-cjk', async () => {
    const result = await renderer.render(design('Hello 日本語'), { format: 'png' })
    expect(result.bytes.length).toBeGreaterThan(0)
    const warning = result.warnings.find((w) => w.code === 'missing_glyphs')
    expect(warning?.message).toBe('title: no available font can draw "日" (U+65E5), "本" (U+672C), "語" (U+8A9E); they render as empty boxes; install @litho/fonts-cjk for Chinese, Japanese and Korean')
  })

  it('cjk fonts › a family of the package named by a document is reported as unavailable', async () => {
    const result = await renderer.render({ ...design('Hello'), components: [{ type: 'text', key: 't', x: 0, y: 0, width: 300, height: 40, text: 'Hello', fontFamily: 'Noto Sans JP' }] }, { format: 'png' })
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'font_fallback', key: 't' }))
  })

  it('cjk fonts › other missing characters get no CJK hint', async () => {
    const result = await renderer.render(design('Runes ᚠᚢᚦ'), { format: 'png' })
    expect(result.warnings.find((w) => w.code === 'missing_glyphs')?.message).not.toContain('fonts-cjk')
  })
})
