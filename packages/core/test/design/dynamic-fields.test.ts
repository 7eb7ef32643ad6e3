import { describe, expect, it } from 'vitest'
import { getDynamicData, getDynamicList } from '../../src/design/dynamic-fields.js'
import type { DesignDocument } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'

function fixture(): DesignDocument {
  return validateDesign({
    version: 2,
    width: 1000,
    height: 500,
    components: [
      { key: 'bg', type: 'shape', width: 1000, height: 500, fill: '#ffffff' },
      { key: 'title', type: 'text', width: 800, height: 100, text: 'Hello', dynamic: ['text', 'fontSize', 'stroke'] },
      { key: 'photo', type: 'image', width: 300, height: 300 },
      { key: 'qr', type: 'qrcode', width: 100, height: 100, value: 'https://example.test' },
      { key: 'ean', type: 'barcode', width: 200, height: 80, value: '590123412345', symbology: 'ean13' },
      { key: 'locked', type: 'text', width: 10, height: 10, text: 'x', dynamic: [] },
      { key: 'card', type: 'group', width: 400, height: 200, children: [{ key: 'caption', type: 'text', width: 400, height: 40, text: 'Inside' }] },
    ],
  })
}

describe('getDynamicList', () => {
  it('returns the type default when the component sets no list, and its own list otherwise', () => {
    const doc = fixture()
    const [bg, title, photo, qr, ean, locked, card] = doc.components
    expect(getDynamicList(bg!)).toEqual(['fill', 'visible'])
    expect(getDynamicList(title!)).toEqual(['text', 'fontSize', 'stroke'])
    expect(getDynamicList(photo!)).toEqual(['src', 'visible'])
    expect(getDynamicList(qr!)).toEqual(['value', 'visible'])
    expect(getDynamicList(ean!)).toEqual(['value', 'visible'])
    expect(getDynamicList(locked!)).toEqual([])
    expect(getDynamicList(card!)).toEqual(['visible'])
  })
})

describe('getDynamicData', () => {
  it('lists every overridable field with its value, null when absent, in paint and list order', () => {
    const { pure, flatten } = getDynamicData(fixture())
    expect(flatten).toEqual({
      'bg.fill': '#ffffff',
      'bg.visible': true,
      'title.text': 'Hello',
      'title.fontSize': 32,
      'title.stroke': null,
      'photo.src': null,
      'photo.visible': true,
      'qr.value': 'https://example.test',
      'qr.visible': true,
      'ean.value': '590123412345',
      'ean.visible': true,
      'card.visible': true,
      'caption.text': 'Inside',
      'caption.color': '#000000',
      'caption.visible': true,
    })
    expect(Object.keys(flatten)).toEqual(Object.keys(pure).flatMap((key) => Object.keys(pure[key]!).map((field) => `${key}.${field}`)))
    expect(pure.title).toEqual({ text: 'Hello', fontSize: 32, stroke: null })
    expect(pure.caption).toEqual({ text: 'Inside', color: '#000000', visible: true })
    expect(Object.keys(pure)).toEqual(['bg', 'title', 'photo', 'qr', 'ean', 'card', 'caption'])
  })

  it('leaves out components with an empty dynamic list', () => {
    const { pure, flatten } = getDynamicData(fixture())
    expect(pure.locked).toBeUndefined()
    expect(Object.keys(flatten).some((key) => key.startsWith('locked.'))).toBe(false)
  })

  it('returns copies of object values', () => {
    const gradient = { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#000' }, { offset: 1, color: '#fff' }] }
    const doc = validateDesign({ version: 2, width: 10, height: 10, components: [{ key: 'bg', type: 'shape', width: 10, height: 10, fill: gradient }] })
    const { pure, flatten } = getDynamicData(doc)
    expect(flatten['bg.fill']).toEqual(gradient)
    ;(flatten['bg.fill'] as { angle: number }).angle = 0
    expect((doc.components[0] as { fill: { angle: number } }).fill.angle).toBe(90)
    expect((pure.bg!.fill as { angle: number }).angle).toBe(90)
  })
})
