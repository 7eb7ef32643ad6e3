import { describe, expect, it } from 'vitest'
import { applyOverrides } from '../../src/design/overrides.js'
import type { DesignDocument } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'
import { listVariations, resolveVariation } from '../../src/design/variations.js'
import { catchError, get } from './helpers.js'

function fixture(variations: unknown[] = []): DesignDocument {
  return validateDesign({
    version: 2,
    name: 'Product card',
    width: 1000,
    height: 500,
    components: [
      { key: 'bg', type: 'shape', width: 1000, height: 500, fill: '#ffffff' },
      { key: 'title', type: 'text', x: 10, y: 20, width: 800, height: 100, text: 'Hello' },
      { key: 'photo', type: 'image', width: 300, height: 300, src: 'https://example.test/a.png' },
      { key: 'qr', type: 'qrcode', width: 100, height: 100, value: 'https://example.test' },
      { key: 'ean', type: 'barcode', width: 200, height: 80, value: '590123412345', symbology: 'ean13' },
      { key: 'card', type: 'group', width: 400, height: 200, children: [{ key: 'caption', type: 'text', width: 400, height: 40, text: 'Inside' }] },
    ],
    variations,
  })
}

const STORY = { id: 'story', name: 'Story', width: 1080, height: 1920, components: { title: { y: 1500, fontSize: 64 }, caption: { x: 5 }, card: { x: 40 } } }
const WIDE = { id: 'wide', width: 2000, height: 600 }

describe('listVariations', () => {
  it('offers master first, then each variation', () => {
    expect(listVariations(fixture([STORY, WIDE]))).toEqual([
      { id: 'master', name: 'Master', dimensions: { width: 1000, height: 500 } },
      { id: 'story', name: 'Story', dimensions: { width: 1080, height: 1920 } },
      { id: 'wide', name: 'wide', dimensions: { width: 2000, height: 600 } },
    ])
    expect(listVariations(fixture()).map((v) => v.id)).toEqual(['master'])
  })
})

describe('resolveVariation', () => {
  it('returns the base size for undefined, "" and "master"', () => {
    const doc = fixture([STORY])
    for (const id of [undefined, '', 'master']) {
      expect(resolveVariation(doc, id)).toEqual({ document: doc, width: 1000, height: 500, variation: 'master', scale: 1, offsetX: 0, offsetY: 0 })
    }
  })

  it('throws ERR_UNKNOWN_VARIATION listing the available ids', () => {
    const error = catchError(() => resolveVariation(fixture([STORY]), 'x'))
    expect(error.code).toBe('ERR_UNKNOWN_VARIATION')
    expect(error.message).toBe('unknown variation "x"; available: master, story')
    expect(error.details).toEqual({ variation: 'x', available: ['master', 'story'] })
  })

  it('applies patches at the variation size without scaling, and leaves the input alone', () => {
    const doc = fixture([STORY])
    const before = structuredClone(doc)
    const resolved = resolveVariation(doc, 'story')
    expect(resolved).toMatchObject({ width: 1080, height: 1920, variation: 'story', scale: 1, offsetX: 0, offsetY: 0 })
    expect(resolved.document.width).toBe(1080)
    expect(resolved.document.height).toBe(1920)
    expect(get(resolved.document, 'title')).toMatchObject({ x: 10, y: 1500, fontSize: 64, text: 'Hello' })
    expect(get(resolved.document, 'caption')).toMatchObject({ x: 5, text: 'Inside' })
    expect(get(resolved.document, 'card')).toMatchObject({ x: 40, children: [expect.objectContaining({ key: 'caption', x: 5 })] })
    expect(get(resolved.document, 'photo')).toBe(get(doc, 'photo'))
    expect(doc).toEqual(before)
  })

  it('scales and centres the base layout when a variation has no patches', () => {
    const doc = fixture([WIDE, { id: 'tall', width: 500, height: 1000, components: {} }])
    // 2000x600 from 1000x500: scale min(2, 1.2) = 1.2, layout 1200x600 centred horizontally.
    expect(resolveVariation(doc, 'wide')).toEqual({ document: doc, width: 2000, height: 600, variation: 'wide', scale: 1.2, offsetX: 400, offsetY: 0 })
    // 500x1000 from 1000x500: scale 0.5, layout 500x250 centred vertically.
    expect(resolveVariation(doc, 'tall')).toEqual({ document: doc, width: 500, height: 1000, variation: 'tall', scale: 0.5, offsetX: 0, offsetY: 375 })
  })

  it('reports an invalid patch as ERR_INVALID_DESIGN with its JSON path', () => {
    const doc = fixture([STORY])
    // validateDesign rejects this up front; resolveVariation checks again for documents built by hand.
    const broken = { ...doc, variations: [{ ...doc.variations[0]!, components: { title: { fontSize: 'big' }, photo: { fit: 'tile' } } }] }
    const error = catchError(() => resolveVariation(broken, 'story'))
    expect(error.code).toBe('ERR_INVALID_DESIGN')
    expect(error.issues.map((i) => i.path)).toEqual(['variations[0].components.title.fontSize', 'variations[0].components.photo.fit'])
    expect(error.issues[0]?.message).toBe('expected a number between 1 and 1000, received "big"')
  })

  it('keeps overrides applied to the base document before resolving', () => {
    const doc = applyOverrides(fixture([STORY]), 'title.text=Sale').document
    const resolved = resolveVariation(doc, 'story')
    expect(get(resolved.document, 'title')).toMatchObject({ text: 'Sale', y: 1500 })
  })
})
