// previewDesign's `layout` (every visible component's box where the layout engine put it, auto-layout
// included, in pixels of the rendered size) and its `document` (an unsaved draft rendered instead of
// a stored version, never stored).
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { afterAll, describe, expect, it } from 'vitest'
import { createDesign, createRenderer, getDesign, previewDesign, type ComponentBox } from '../../src/index.js'
import { rejection } from './helpers.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const bob = { id: 'u_bob', plan: 'pro' as const }
const renderer = createRenderer()
afterAll(() => renderer.close())

/** A row group that places its children itself, an absolute group with a border, a rotated text. */
const DOCUMENT = {
  version: 2,
  width: 400,
  height: 200,
  background: '#ffffff',
  components: [
    {
      type: 'group',
      key: 'row',
      x: 20,
      y: 20,
      width: 360,
      height: 60,
      layout: { direction: 'row', gap: 10, align: 'start', justify: 'start', padding: { left: 10, top: 5 } },
      children: [
        { type: 'shape', key: 'a', x: 300, y: 30, width: 50, height: 40, fill: '#ff0000' },
        { type: 'shape', key: 'b', width: 60, height: 40, fill: '#00ff00' },
        { type: 'shape', key: 'hidden', width: 60, height: 40, fill: '#00ff00', visible: false },
      ],
    },
    { type: 'group', key: 'box', x: 100, y: 100, width: 100, height: 80, border: { width: 4, color: '#000000' }, children: [{ type: 'shape', key: 'dot', x: 6, y: 8, width: 10, height: 10, fill: '#0000ff' }] },
    { type: 'text', key: 'tilted', x: 250, y: 120, width: 100, height: 40, text: 'Hi', rotation: 30, dynamic: ['text'] },
  ],
  variations: [{ id: 'half', name: 'Half', width: 200, height: 100 }],
}

async function setup() {
  const services = { designs: memoryDesignStore(), meter: memoryMeter(), renderer }
  const design = await createDesign(services, { account: alice, name: 'Layout', document: DOCUMENT })
  return { services, design }
}

const byKey = (boxes: ComponentBox[] | undefined) => Object.fromEntries((boxes ?? []).map((b) => [b.key, b]))

describe('previewDesign › layout', () => {
  it('gives the boxes where auto-layout placed the children (not their x/y), groups before children, hidden ones left out', async () => {
    const { services, design } = await setup()
    const preview = await previewDesign(services, { account: alice, id: design._id, layout: true })
    expect(preview.layout).toMatchObject({ width: 400, height: 200 })
    expect(preview.layout!.components.map((c) => c.key)).toEqual(['row', 'a', 'b', 'box', 'dot', 'tilted'])
    const boxes = byKey(preview.layout!.components)
    expect(boxes.row).toEqual({ key: 'row', type: 'group', x: 20, y: 20, width: 360, height: 60 })
    // In flow: padding 10 left, 5 top; then a gap of 10. a's x: 300, y: 30 are ignored by the row.
    expect(boxes.a).toEqual({ key: 'a', type: 'shape', x: 30, y: 25, width: 50, height: 40, parent: 'row' })
    expect(boxes.b).toEqual({ key: 'b', type: 'shape', x: 90, y: 25, width: 60, height: 40, parent: 'row' })
    // Absolute children sit inside their group's border.
    expect(boxes.dot).toEqual({ key: 'dot', type: 'shape', x: 110, y: 112, width: 10, height: 10, parent: 'box' })
    // The box before rotation, and the rotation.
    expect(boxes.tilted).toEqual({ key: 'tilted', type: 'text', x: 250, y: 120, width: 100, height: 40, rotation: 30 })
  })

  it('a variation scaled from the base layout: boxes in pixels of the rendered size', async () => {
    const { services, design } = await setup()
    const preview = await previewDesign(services, { account: alice, id: design._id, variation: 'half', layout: true })
    expect(preview.layout).toMatchObject({ width: 200, height: 100 })
    expect(byKey(preview.layout!.components).b).toEqual({ key: 'b', type: 'shape', x: 45, y: 12.5, width: 30, height: 20, parent: 'row' })
    expect(byKey(preview.layout!.components).dot).toMatchObject({ x: 55, y: 56 })
  })

  it('from the static-layer cache: the same boxes as a whole render, on the render that fills the cache and on the one that hits it', async () => {
    const whole = createRenderer({ layerCacheBytes: 0 })
    try {
      const { services, design } = await setup()
      const expected = (await previewDesign({ ...services, renderer: whole }, { account: alice, id: design._id, layout: true, overrides: { 'tilted.text': 'Yo' } })).layout
      expect(expected!.components).toHaveLength(6)
      for (const text of ['Yo', 'Again']) {
        const layered = await previewDesign(services, { account: alice, id: design._id, layout: true, overrides: { 'tilted.text': text } })
        expect(layered.layout, text).toEqual(expected)
      }
    } finally {
      await whole.close()
    }
  })

  it('is the same on a second preview, in full-size pixels whatever maxSide', async () => {
    const { services, design } = await setup()
    const first = await previewDesign(services, { account: alice, id: design._id, layout: true, overrides: {} })
    const second = await previewDesign(services, { account: alice, id: design._id, layout: true, maxSide: 100 })
    expect(second.layout).toEqual(first.layout)
    expect(second.scale).toBe(0.25)
  })

  it('is absent unless asked for', async () => {
    const { services, design } = await setup()
    expect(await previewDesign(services, { account: alice, id: design._id })).not.toHaveProperty('layout')
  })
})

describe('previewDesign › document', () => {
  it('renders the unsaved document instead of the stored versions (source "document") and stores nothing', async () => {
    const { services, design } = await setup()
    const document = { ...DOCUMENT, width: 300, components: [{ type: 'shape', key: 'only', x: 0, y: 0, width: 30, height: 30, fill: '#000000' }] }
    const preview = await previewDesign(services, { account: alice, id: design._id, document, layout: true })
    expect(preview).toMatchObject({ source: 'document', width: 300, height: 200 })
    expect(preview.layout!.components.map((c) => c.key)).toEqual(['only'])
    expect(await getDesign(services, { account: alice, id: design._id })).toEqual(design)
  })

  it('an invalid document: ERR_INVALID_DESIGN with paths under document., before the store is read', async () => {
    const { services, design } = await setup()
    const bad = { ...DOCUMENT, components: [{ type: 'shape', key: 'x', width: -1, height: 10 }] }
    const error = await rejection(previewDesign(services, { account: alice, id: design._id, document: bad }))
    expect(error.code).toBe('ERR_INVALID_DESIGN')
    expect(error.issues.map((i) => i.path)).toContain('document.components[0].width')
  })

  it('with source: 400 naming source; for a design of another account: not found', async () => {
    const { services, design } = await setup()
    const both = await rejection(previewDesign(services, { account: alice, id: design._id, document: DOCUMENT, source: 'draft' }))
    expect(both).toMatchObject({ code: 'ERR_INVALID_REQUEST', issues: [{ path: 'source' }] })
    const theirs = await rejection(previewDesign(services, { account: bob, id: design._id, document: DOCUMENT }))
    expect(theirs.code).toBe('ERR_DESIGN_NOT_FOUND')
  })
})
