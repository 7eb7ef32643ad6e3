// "Did you mean": an override key that names nothing gets the closest overridable key in its
// warning, and strict mode refuses such keys, naming each with that key and the valid ones.
import { describe, expect, it } from 'vitest'
import { LithoError, applyOverrides } from '../../src/index.js'
import { prepareRender } from '../../src/service/prepare-render.js'
import { closestKey, editDistance } from '../../src/design/suggest.js'
import { dynamicOverrideKeys } from '../../src/design/overrides.js'
import type { DesignDocument } from '../../src/index.js'

const DOC = {
  version: 2,
  width: 400,
  height: 200,
  components: [
    { type: 'text', key: 'title', x: 0, y: 0, width: 400, height: 80, text: 'Hi', fontSize: 32 },
    { type: 'text', key: 'talk-title', x: 0, y: 80, width: 400, height: 40, text: 'Talk', fontSize: 20, dynamic: ['text'] },
    { type: 'group', key: 'card', x: 0, y: 120, width: 200, height: 80, children: [{ type: 'image', key: 'photo', x: 0, y: 0, width: 80, height: 80 }] },
    { type: 'shape', key: 'bg', x: 0, y: 0, width: 10, height: 10, fill: '#000', dynamic: [] },
  ],
} as unknown as DesignDocument

describe('suggestions', () => {
  it('override › editDistance counts a swap of neighbours as one edit, and stops past the limit', () => {
    expect(editDistance('titel.text', 'title.text', 3)).toBe(1)
    expect(editDistance('title.txt', 'title.text', 3)).toBe(1)
    expect(editDistance('abc', 'xyz', 3)).toBe(3)
    expect(editDistance('short', 'a much longer key', 2)).toBe(3)
  })

  it('override › closestKey suggests only what is close enough, case aside', () => {
    const keys = dynamicOverrideKeys(DOC)
    expect(keys).toEqual(['title.text', 'title.color', 'title.visible', 'talk-title.text', 'card.visible', 'photo.src', 'photo.visible'])
    expect(closestKey('titel.text', keys)).toBe('title.text')
    expect(closestKey('talk-titel.text', keys)).toBe('talk-title.text')
    expect(closestKey('Title.Text', keys)).toBe('title.text')
    expect(closestKey('photo.scr', keys)).toBe('photo.src')
    expect(closestKey('price.amount', keys)).toBeUndefined()
    expect(closestKey('x'.repeat(500), keys)).toBeUndefined()
  })

  it('override › an ignored typo carries its suggestion in the message; a far-off key does not', () => {
    const { ignored } = applyOverrides(DOC, { 'titel.text': 'A', 'title.txt': 'B', 'price.amount': '9', title: 'bare', 'bg.fill': '#fff' })
    const byKey = Object.fromEntries(ignored.map((i) => [i.key, i]))
    expect(byKey['titel.text']).toMatchObject({ reason: 'unknown_component', suggestion: 'title.text' })
    expect(byKey['titel.text']!.message).toBe('no component has the key "titel"; did you mean "title.text"?')
    expect(byKey['title.txt']).toMatchObject({ reason: 'unknown_field', suggestion: 'title.text' })
    expect(byKey['price.amount']!.suggestion).toBeUndefined()
    expect(byKey.title).toMatchObject({ reason: 'bare_key', suggestion: 'title.text' })
    // A fixed field is not a typo: its message lists the dynamic fields instead.
    expect(byKey['bg.fill']).toMatchObject({ reason: 'not_dynamic' })
    expect(byKey['bg.fill']!.suggestion).toBeUndefined()
  })
})

describe('strict overrides', () => {
  it('override › strict refuses every unknown key at once, each with its suggestion, and lists the valid keys', () => {
    let error: unknown
    try {
      prepareRender({ id: 'd_1', document: DOC }, { 'titel.text': 'A', 'price.amount': '9', 'title.text': 'ok' }, undefined, { strict: true })
    } catch (caught) {
      error = caught
    }
    expect(LithoError.isInstance(error)).toBe(true)
    const refused = error as LithoError
    expect(refused.code).toBe('ERR_INVALID_OVERRIDE')
    expect(refused.issues.map((i) => i.path)).toEqual(['titel.text', 'price.amount'])
    expect(refused.message).toContain('titel.text: no component has the key "titel"; did you mean "title.text"?')
    expect(refused.message).toContain('valid keys: title.text, title.color')
    expect(refused.details).toEqual({ unknown: [{ key: 'titel.text', suggestion: 'title.text' }, { key: 'price.amount' }], valid: dynamicOverrideKeys(DOC) })
  })

  it('override › strict with only known keys renders as usual; without strict the same keys are warnings', () => {
    expect(prepareRender({ id: 'd_1', document: DOC }, { 'title.text': 'ok' }, undefined, { strict: true }).warnings).toEqual([])
    const lax = prepareRender({ id: 'd_1', document: DOC }, { 'titel.text': 'A' }, undefined, { strict: false })
    expect(lax.warnings).toEqual([{ code: 'override_ignored', key: 'titel.text', reason: 'unknown_component', suggestion: 'title.text', message: 'no component has the key "titel"; did you mean "title.text"?' }])
  })

  it('override › render parameters repeated in a body are not refused by strict mode', () => {
    expect(() => prepareRender({ id: 'd_1', document: DOC }, { title: { text: 'x' }, format: 'png' }, undefined, { strict: true })).not.toThrow()
  })
})
