// The editor's pure document operations: groups' children, variation patches, removal and
// reordering at any depth. No browser.
import { describe, expect, it } from 'vitest'
import type { DesignDocument } from '../app/document.js'
import { addComponent, findComponent, flatten, moveComponent, newComponent, patchComponent, removeComponent, updateComponent, variationId, variationView } from '../app/pages/editor-model.js'

const doc = (): DesignDocument => ({
  version: 2,
  width: 1200,
  height: 630,
  components: [
    { key: 'title', type: 'text', x: 10, y: 10, width: 500, height: 80, text: 'Hi' },
    { key: 'tag', type: 'group', x: 100, y: 400, width: 400, height: 100, layout: { direction: 'row' }, children: [{ key: 'price', type: 'text', x: 0, y: 0, width: 100, height: 60, text: '€9' }, { key: 'unit', type: 'text', x: 0, y: 0, width: 100, height: 60, text: '/mo' }] },
  ],
  variations: [{ id: 'story', name: 'Story', width: 600, height: 900 }],
})

describe('groups', () => {
  it("lists, finds, changes and reorders a group's children (its `children`), with their paths", () => {
    const d = doc()
    expect(flatten(d.components as never).map((c) => [c.component.key, c.parent, c.path])).toEqual([
      ['title', undefined, 'components[0]'],
      ['tag', undefined, 'components[1]'],
      ['price', 'tag', 'components[1].children[0]'],
      ['unit', 'tag', 'components[1].children[1]'],
    ])
    expect(findComponent(updateComponent(d, 'unit', { text: '/yr' }), 'unit')?.text).toBe('/yr')
    const moved = moveComponent(d, 'price', 1)
    expect((findComponent(moved, 'tag')?.children ?? []).map((c) => c.key)).toEqual(['unit', 'price'])
    expect(moveComponent(d, 'unit', 1)).toEqual(d)
  })

  it('adds into a group, sized to fit it; a new group comes with a text child of a fresh key', () => {
    const d = doc()
    const tag = findComponent(d, 'tag')!
    const qr = newComponent(d, 'qrcode', tag)
    expect(qr).toMatchObject({ type: 'qrcode', x: 0, y: 0, width: 80, height: 80, value: 'https://example.com' })
    expect((findComponent(addComponent(d, qr, 'tag'), 'tag')?.children ?? []).map((c) => c.key)).toEqual(['price', 'unit', 'qrcode'])
    const group = newComponent(d, 'group')
    expect(group.children?.map((c) => c.key)).toEqual(['group-text'])
    expect(newComponent(d, 'barcode')).toMatchObject({ type: 'barcode', symbology: 'code128' })
  })
})

describe('variations', () => {
  it('patches a component in one variation only, and shows the variation with its patches and size', () => {
    const d = patchComponent(doc(), 'story', 'price', { x: 20, text: 'Nine', key: 'nope', dynamic: [] })
    expect(d.variations).toEqual([{ id: 'story', name: 'Story', width: 600, height: 900, components: { price: { x: 20, text: 'Nine' } } }])
    expect(findComponent(d, 'price')).toMatchObject({ x: 0, text: '€9' })
    const view = variationView(d, 'story')
    expect([view.width, view.height]).toEqual([600, 900])
    expect(findComponent(view, 'price')).toMatchObject({ key: 'price', x: 20, text: 'Nine' })
    // Removing the last patched field drops the patch, and the last patch drops `components`.
    expect(patchComponent(patchComponent(d, 'story', 'price', { x: undefined }), 'story', 'price', { text: undefined }).variations).toEqual([{ id: 'story', name: 'Story', width: 600, height: 900 }])
  })

  it("removes a component's patches (and its children's) with it, so the document stays valid", () => {
    const d = patchComponent(patchComponent(doc(), 'story', 'unit', { y: 5 }), 'story', 'title', { y: 50 })
    expect(removeComponent(d, 'tag').variations).toEqual([{ id: 'story', name: 'Story', width: 600, height: 900, components: { title: { y: 50 } } }])
    expect(removeComponent(removeComponent(d, 'tag'), 'title').variations).toEqual([{ id: 'story', name: 'Story', width: 600, height: 900 }])
  })

  it('makes ids from names: unused, never master', () => {
    const d = doc()
    expect(variationId(d, 'Story')).toBe('story-2')
    expect(variationId(d, '  Instagram Post! ')).toBe('instagram-post')
    expect(variationId(d, 'Master')).toBe('master-2')
    expect(variationId(d, '!!!')).toBe('size')
  })
})
