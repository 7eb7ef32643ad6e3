import { describe, expect, it } from 'vitest'
import { MAX_NUMERIC_OVERRIDE_LENGTH, RESERVED_PARAMETERS, applyOverrides, parseOverrides } from '../../src/design/overrides.js'
import type { DesignDocument } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'
import { catchError, get } from './helpers.js'

const GRADIENT = { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#ff0000' }, { offset: 1, color: '#0000ff' }] }

function fixture(): DesignDocument {
  return validateDesign({
    version: 2,
    width: 1000,
    height: 500,
    components: [
      { key: 'bg', type: 'shape', width: 1000, height: 500, fill: '#ffffff', dynamic: ['fill', 'stroke', 'radius', 'visible'] },
      { key: 'title', type: 'text', width: 800, height: 100, text: 'Hello', dynamic: ['text', 'color', 'fontSize', 'fontWeight', 'stroke', 'visible'] },
      { key: 'price', type: 'text', width: 200, height: 50, text: '9' },
      { key: 'photo', type: 'image', width: 300, height: 300, src: 'https://example.test/a.png' },
      { key: 'qr', type: 'qrcode', width: 100, height: 100, value: 'https://example.test' },
      { key: 'ean', type: 'barcode', width: 200, height: 80, value: '590123412345', symbology: 'ean13' },
      { key: 'format', type: 'text', width: 10, height: 10, text: 'f' },
      { key: 'card', type: 'group', width: 400, height: 200, children: [{ key: 'caption', type: 'text', width: 400, height: 40, text: 'Inside' }] },
    ],
  })
}


describe('parseOverrides', () => {
  it('parses a query string with or without "?"', () => {
    for (const q of ['title.text=Hi&price.text=12', '?title.text=Hi&price.text=12']) {
      expect(parseOverrides(q)).toEqual({
        entries: [
          { key: 'title.text', value: 'Hi', fromQuery: true },
          { key: 'price.text', value: '12', fromQuery: true },
        ],
        ignored: [],
      })
    }
  })

  it('parses URLSearchParams, keeping the last of a repeated key', () => {
    const parsed = parseOverrides(new URLSearchParams('title.text=a&title.text=b'))
    expect(parsed.entries).toEqual([{ key: 'title.text', value: 'b', fromQuery: true }])
  })

  it('parses nested objects, keeping object values whole', () => {
    const parsed = parseOverrides({ title: { text: 'Hi' }, bg: { fill: GRADIENT } })
    expect(parsed.entries).toEqual([
      { key: 'title.text', value: 'Hi', fromQuery: false },
      { key: 'bg.fill', value: GRADIENT, fromQuery: false },
    ])
  })

  it('parses flat dot paths and mixes of both forms', () => {
    expect(parseOverrides({ 'title.stroke.color': 'red' }).entries).toEqual([{ key: 'title.stroke.color', value: 'red', fromQuery: false }])
    const mixed = parseOverrides({ 'title.text': 'A', photo: { src: 'https://x.test/b.png' } })
    expect(mixed.entries.map((e) => e.key)).toEqual(['title.text', 'photo.src'])
  })

  it('merges an array of inputs, later wins', () => {
    const parsed = parseOverrides(['title.text=query&price.text=1', { title: { text: 'body' } }])
    expect(parsed.entries).toEqual([
      { key: 'price.text', value: '1', fromQuery: true },
      { key: 'title.text', value: 'body', fromQuery: false },
    ])
  })

  it('reports bare keys in queries and objects', () => {
    for (const input of ['title=Hi', { title: 'Hi' }]) {
      const { entries, ignored } = parseOverrides(input)
      expect(entries).toEqual([])
      expect(ignored).toEqual([{ key: 'title', reason: 'bare_key', message: expect.stringContaining('"title.<field>"') }])
    }
  })

  it('skips reserved names silently in a query but reports them in a body', () => {
    const query = `${RESERVED_PARAMETERS.map((p) => `${p}=x`).join('&')}&title.text=Hi`
    expect(parseOverrides(query)).toEqual({ entries: [{ key: 'title.text', value: 'Hi', fromQuery: true }], ignored: [] })
    const body = parseOverrides({ format: 'png', quality: 80 })
    expect(body.entries).toEqual([])
    expect(body.ignored).toEqual([
      { key: 'format', reason: 'reserved', message: 'format is a render parameter, not an override' },
      { key: 'quality', reason: 'reserved', message: 'quality is a render parameter, not an override' },
    ])
  })

  it('matches reserved names exactly and honours a custom list', () => {
    expect(parseOverrides('Format=png').ignored[0]?.reason).toBe('bare_key')
    expect(parseOverrides('format.text=Hi').entries.map((e) => e.key)).toEqual(['format.text'])
    expect(parseOverrides('w=10&format=png', { reserved: ['w'] }).ignored.map((i) => i.key)).toEqual(['format'])
  })

  it('rejects input that is neither a query nor an object', () => {
    expect(catchError(() => parseOverrides(42 as never)).code).toBe('ERR_INVALID_OVERRIDE')
  })

  it('a list [true] of overrides is refused with a message naming position [0]', () => {
    const error = catchError(() => parseOverrides([true] as never))
    expect(error.issues).toEqual([{ path: '[0]', message: 'expected a query string or an object, received boolean' }])
    expect(error.message).toContain('[0]: expected a query string or an object, received boolean')
  })
})

describe('applyOverrides', () => {
  it('applies query and body overrides and lists them in input order', () => {
    const doc = fixture()
    const { document, applied, ignored } = applyOverrides(doc, 'title.text=Hi&photo.src=https://x.test/b.png&qr.value=abc&ean.value=4006381333931')
    expect(applied).toEqual(['title.text', 'photo.src', 'qr.value', 'ean.value'])
    expect(ignored).toEqual([])
    expect(get(document, 'title').text).toBe('Hi')
    expect(get(document, 'photo').src).toBe('https://x.test/b.png')
    expect(get(document, 'qr').value).toBe('abc')
    expect(get(document, 'ean').value).toBe('4006381333931')
  })

  it('never mutates the input document', () => {
    const doc = fixture()
    const before = structuredClone(doc)
    const result = applyOverrides(doc, { title: { text: 'X', stroke: { color: 'red', width: 2 } }, caption: { text: 'Y' }, 'bg.fill': GRADIENT })
    expect(doc).toEqual(before)
    expect(result.document).not.toBe(doc)
    expect(get(result.document, 'caption').text).toBe('Y')
  })

  it('coerces query strings to numbers, booleans and JSON objects', () => {
    const { document } = applyOverrides(fixture(), 'title.fontSize=48&title.fontWeight=700&title.visible=false&price.visible=0&photo.visible=1&title.stroke={"color":"red","width":3}')
    const title = get(document, 'title')
    expect(title.fontSize).toBe(48)
    expect(title.fontWeight).toBe(700)
    expect(title.visible).toBe(false)
    expect(title.stroke).toEqual({ color: 'red', width: 3 })
    expect(get(document, 'price').visible).toBe(false)
    expect(get(document, 'photo').visible).toBe(true)
  })

  it('parses a JSON gradient from a query and reports what is wrong inside a wrong one', () => {
    const { document } = applyOverrides(fixture(), `bg.fill=${encodeURIComponent(JSON.stringify(GRADIENT))}`)
    expect(get(document, 'bg').fill).toEqual(GRADIENT)
    const error = catchError(() => applyOverrides(fixture(), 'bg.fill={"type":"linear","stops":[]}'))
    expect(error.issues).toEqual([{ path: 'bg.fill', message: 'at stops: expected at least 2 gradient stops, received an array' }])
  })

  it('keeps strings that are valid as they are', () => {
    const { document } = applyOverrides(fixture(), 'price.text=12&title.text=true&title.fontWeight=bold')
    expect(get(document, 'price').text).toBe('12')
    expect(get(document, 'title').text).toBe('true')
    expect(get(document, 'title').fontWeight).toBe(700)
  })

  it('does not coerce body values', () => {
    const error = catchError(() => applyOverrides(fixture(), { 'title.fontSize': '12' }))
    expect(error.code).toBe('ERR_INVALID_OVERRIDE')
    expect(error.issues).toEqual([{ path: 'title.fontSize', message: 'expected a number between 1 and 1000, received "12"' }])
  })

  it('rejects a value that cannot be coerced, naming the key', () => {
    const error = catchError(() => applyOverrides(fixture(), 'title.fontSize=abc'))
    expect(error.code).toBe('ERR_INVALID_OVERRIDE')
    expect(error.issues).toEqual([{ path: 'title.fontSize', message: 'expected a number between 1 and 1000, received "abc"' }])
    expect(error.message).toContain('title.fontSize: expected a number')
  })

  it('reports an out-of-range number as the number it was coerced to', () => {
    const error = catchError(() => applyOverrides(fixture(), 'title.fontSize=5000'))
    expect(error.issues[0]?.message).toBe('expected a number between 1 and 1000, received 5000')
  })

  it('a 16 KB digit override is coerced in linear time', () => {
    // The attack: a run of digits that is not a number, from a public render URL. The old numeric
    // pattern backtracked quadratically on it (16 KB: 0.6-1.1 s of event loop). Work is compared
    // across sizes (median of 7, 10x more input may cost at most 25x more time, plus 3 ms of
    // slack), not against a wall-clock limit: quadratic work costs about 100x.
    const timeOf = (bytes: number) => {
      const query = `title.fontSize=${'1'.repeat(bytes - 1)}x`
      const samples: number[] = []
      for (let run = 0; run < 7; run++) {
        const start = performance.now()
        const error = catchError(() => applyOverrides(fixture(), query))
        samples.push(performance.now() - start)
        expect(error.issues[0]?.path).toBe('title.fontSize')
      }
      return samples.sort((a, b) => a - b)[3]!
    }
    timeOf(1_600) // warm up
    const small = timeOf(1_600)
    const large = timeOf(16_000)
    expect(large).toBeLessThan(25 * small + 3)
  })

  it(`a query value longer than ${MAX_NUMERIC_OVERRIDE_LENGTH} characters is not read as a number`, () => {
    const longest = `${'0'.repeat(MAX_NUMERIC_OVERRIDE_LENGTH - 2)}48`
    expect(get(applyOverrides(fixture(), `title.fontSize=${longest}`).document, 'title').fontSize).toBe(48)
    const error = catchError(() => applyOverrides(fixture(), `title.fontSize=0${longest}`))
    expect(error.issues[0]).toMatchObject({ path: 'title.fontSize' })
    expect(error.issues[0]?.message).toMatch(/^expected a number between 1 and 1000, received /)
  })

  it('reports several invalid values at once', () => {
    const error = catchError(() => applyOverrides(fixture(), 'title.color=nocolour&title.fontSize=abc&photo.src=ftp://x&qr.value=&bg.fill=nope'))
    expect(error.issues.map((i) => i.path).sort()).toEqual(['bg.fill', 'photo.src', 'qr.value', 'title.color', 'title.fontSize'])
    expect(error.issues.find((i) => i.path === 'title.color')?.message).toMatch(/^expected a CSS colour such as "#1a1a1a".*received "nocolour"$/)
    expect(error.message).toContain('(5 problems)')
  })

  it('reports each ignored reason with its key and never throws for them', () => {
    const { applied, ignored } = applyOverrides(fixture(), 'title=Hi&nope.text=x&title.align=center&title.bogus=1&title.text=ok')
    expect(applied).toEqual(['title.text'])
    expect(ignored.map(({ key, reason }) => ({ key, reason }))).toEqual([
      { key: 'title', reason: 'bare_key' },
      { key: 'nope.text', reason: 'unknown_component' },
      { key: 'title.align', reason: 'not_dynamic' },
      { key: 'title.bogus', reason: 'unknown_field' },
    ])
    expect(ignored[2]?.message).toContain('text, color, fontSize, fontWeight, stroke, visible')
  })

  it('treats identity fields and unsafe paths as not overridable', () => {
    const { ignored } = applyOverrides(fixture(), { 'title.key': 'x', 'title.stroke.__proto__': 'x', 'card.children': [] })
    expect(ignored.map((i) => i.reason)).toEqual(['not_dynamic', 'unknown_field', 'not_dynamic'])
  })

  it('reports reserved body keys but overrides a component named like a parameter by dot path', () => {
    const { document, applied, ignored } = applyOverrides(fixture(), { format: { text: 'no' }, 'format.text': 'yes' })
    expect(ignored).toEqual([{ key: 'format', reason: 'reserved', message: 'format is a render parameter, not an override' }])
    expect(applied).toEqual(['format.text'])
    expect(get(document, 'format').text).toBe('yes')
    expect(applyOverrides(fixture(), 'format=png').ignored).toEqual([])
  })

  it('addresses a component inside a group by its own key', () => {
    const { document } = applyOverrides(fixture(), 'caption.text=Grouped&card.visible=false')
    const card = document.components.find((c) => c.key === 'card')
    expect(card?.type === 'group' && card.children[0]).toMatchObject({ key: 'caption', text: 'Grouped' })
    expect(card?.visible).toBe(false)
  })

  it('sets one property through a dot path, creating the object when absent', () => {
    const { document } = applyOverrides(fixture(), 'title.stroke.color=red&title.stroke.width=4')
    expect(get(document, 'title').stroke).toEqual({ color: 'red', width: 4 })
    const error = catchError(() => applyOverrides(fixture(), 'title.stroke.color=nocolour'))
    expect(error.issues).toEqual([{ path: 'title.stroke.color', message: expect.stringContaining('received "nocolour"') }])
  })

  it('replaces a whole field with a nested object and names the key of a deeper problem', () => {
    const { document } = applyOverrides(fixture(), { bg: { fill: GRADIENT } })
    expect(get(document, 'bg').fill).toEqual(GRADIENT)
    const error = catchError(() => applyOverrides(fixture(), { title: { stroke: { color: 'bad' } } }))
    expect(error.issues).toEqual([{ path: 'title.stroke', message: expect.stringMatching(/^at color: expected a CSS colour.*received "bad"$/) }])
  })

  it('unsets a field with null so data.flatten round-trips', () => {
    const { document } = applyOverrides(fixture(), { 'title.stroke': null, 'title.color': null })
    expect(get(document, 'title').stroke).toBeUndefined()
    expect(get(document, 'title').color).toBe('#000000')
  })

  it('accepts an already parsed result and keeps its ignored keys', () => {
    const parsed = parseOverrides(['title=x', 'title.text=Hi'])
    const { applied, ignored } = applyOverrides(fixture(), parsed)
    expect(applied).toEqual(['title.text'])
    expect(ignored.map((i) => i.key)).toEqual(['title'])
  })
})
