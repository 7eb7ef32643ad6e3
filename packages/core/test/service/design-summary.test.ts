import { describe, expect, it } from 'vitest'
import { diffDocuments, summarizeDesignWrite } from '../../src/service/design-summary.js'
import type { DesignResource } from '../../src/service/designs.js'

const title = { type: 'text', key: 'title', x: 0, y: 0, width: 100, height: 40, text: 'Hi' }
const photo = { type: 'image', key: 'photo', width: 100, height: 100, src: 'https://example.com/a.png', dynamic: [] }
const tag = { type: 'group', key: 'tag', width: 200, height: 50, layout: { direction: 'row' }, children: [{ type: 'text', key: 'price', width: 80, height: 'auto', text: '$1' }] }
const doc = (components: unknown[], extra: Record<string, unknown> = {}) => ({ version: 2, width: 400, height: 300, components, ...extra })
const resource = (fields: Partial<DesignResource>): DesignResource => ({ _id: 'd_1', name: 'Card', renderCode: 'rc', createdAt: 't0', updatedAt: 't1', design: null, ...fields })

describe('summarizeDesignWrite', () => {
  it('a creation: "created", the state, and every component (nested ones with their group) with its dynamic fields', () => {
    const summary = summarizeDesignWrite(resource({ draft: doc([title, photo, tag]) }))
    expect(summary).toEqual({
      _id: 'd_1',
      name: 'Card',
      renderCode: 'rc',
      state: 'draft',
      published: false,
      changes: 'created',
      components: [
        { key: 'title', type: 'text', dynamic: ['text', 'color', 'visible'] },
        { key: 'photo', type: 'image', dynamic: [] },
        { key: 'tag', type: 'group', dynamic: ['visible'] },
        { key: 'price', type: 'text', dynamic: ['text', 'color', 'visible'], parent: 'tag' },
      ],
    })
    expect(summarizeDesignWrite(resource({ design: doc([]) })).state).toBe('published')
  })

  it('an update: components added, removed and changed with their field names, top-level fields and the name', () => {
    const before = resource({ design: doc([title, photo, tag]) })
    const after = resource({
      name: 'Renamed',
      design: doc([title, photo, tag]),
      draft: doc([{ ...title, text: 'Hello', y: 10 }, { ...tag, children: [{ ...tag.children[0], text: '$2' }, { type: 'shape', key: 'dot', width: 4, height: 4 }] }], { width: 500 }),
    })
    const summary = summarizeDesignWrite(after, before)
    expect(summary.state).toBe('draft')
    expect(summary.published).toBe(true)
    expect(summary.changes).toEqual({
      name: 'Renamed',
      components: {
        added: ['dot'],
        removed: ['photo'],
        changed: [
          { key: 'title', fields: ['y', 'text'] },
          { key: 'tag', fields: ['children'] },
          { key: 'price', fields: ['text'] },
        ],
      },
      fields: ['width'],
    })
  })

  it('an update that changes nothing reports empty lists, and a reorder as the top-level "components" field', () => {
    expect(diffDocuments(doc([title, photo]), doc([title, photo]))).toEqual({ components: { added: [], removed: [], changed: [] }, fields: [] })
    expect(diffDocuments(doc([title, photo]), doc([photo, title])).fields).toEqual(['components'])
    expect(diffDocuments(doc([title, photo]), doc([title, tag])).fields).toEqual([])
  })
})
