import { describe, expect, it } from 'vitest'
import { LithoError, type LithoIssue } from '../../src/errors.js'
import { isCssColor } from '../../src/design/color.js'
import { getDesignGuide } from '../../src/design/guide.js'
import { validateDesign } from '../../src/design/validate-design.js'

/** A document of the given extra fields on a 100x100 canvas. */
const doc = (extra: Record<string, unknown> = {}) => ({ version: 2, width: 100, height: 100, ...extra })
/** A text component keyed `title`, with the given extra fields. */
const text = (extra: Record<string, unknown> = {}) => ({ type: 'text', key: 'title', width: 10, height: 10, ...extra })

function invalid(document: unknown): LithoError {
  try {
    validateDesign(document)
  } catch (error) {
    if (LithoError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected validateDesign to throw')
}

/** Asserts the document is rejected with exactly these issues, each also a line of the message. */
function expectIssues(document: unknown, issues: LithoIssue[]): void {
  const error = invalid(document)
  expect(error.code).toBe('ERR_INVALID_DESIGN')
  expect(error.issues).toEqual(issues)
  const lines = error.message.split('\n')
  expect(lines[0]).toBe(`Invalid design document (${issues.length === 1 ? '1 problem' : `${issues.length} problems`}):`)
  for (const issue of issues) expect(lines).toContain(issue.path ? `${issue.path}: ${issue.message}` : issue.message)
}

const expectOne = (document: unknown, path: string, message: string) => expectIssues(document, [{ path, message }])

const COLOUR_MESSAGE = (received: string) => `expected a CSS colour such as "#1a1a1a", "rgb(0 0 0 / 50%)" or "transparent", received ${JSON.stringify(received)}`

describe('validateDesign › accepts', () => {
  it('a minimal document, with defaults applied', () => {
    expect(validateDesign({ version: 2, width: 1, height: 1 })).toEqual({ version: 2, width: 1, height: 1, fonts: [], components: [], variations: [] })
  })

  it('the largest canvas, 4096x4096', () => {
    expect(validateDesign(doc({ width: 4096, height: 4096 })).width).toBe(4096)
  })

  it('a minimal text component, with every default applied', () => {
    const [title] = validateDesign(doc({ components: [text()] })).components
    expect(title).toMatchObject({
      type: 'text',
      key: 'title',
      x: 0,
      y: 0,
      rotation: 0,
      opacity: 1,
      visible: true,
      text: '',
      fontFamily: 'sans-serif',
      fontSize: 32,
      fontWeight: 400,
      fontStyle: 'normal',
      color: '#000000',
      align: 'left',
      verticalAlign: 'top',
      lineHeight: 1.2,
      letterSpacing: 0,
      textTransform: 'none',
      direction: 'auto',
    })
    expect(title?.dynamic).toBeUndefined()
  })

  it("the guide's full example, with defaults applied", () => {
    const { example } = getDesignGuide()
    const before = JSON.stringify(example)
    const design = validateDesign(example)
    expect(JSON.stringify(example)).toBe(before) // the input is never mutated
    const byKey = new Map<string, Record<string, unknown>>()
    const visit = (components: readonly unknown[]) => {
      for (const component of components as Array<Record<string, unknown>>) {
        byKey.set(component.key as string, component)
        if (Array.isArray(component.children)) visit(component.children)
      }
    }
    visit(design.components)
    expect(byKey.get('price')).toMatchObject({ fontWeight: 700, x: 0, y: 0, align: 'left' }) // "bold" becomes 700
    expect(byKey.get('price-tag')).toMatchObject({ clip: false, layout: { direction: 'row', wrap: false, gap: 16 } })
    expect(byKey.get('qr')).toMatchObject({ errorCorrection: 'M', opacity: 1 })
    expect(byKey.get('ean')).toMatchObject({ showText: true, symbology: 'ean13' })
    expect(byKey.get('logo')).toMatchObject({ fit: 'contain', focus: { x: 0.5, y: 0.5 } })
    expect(byKey.get('card')).toMatchObject({ border: { color: '#f1d6bd', width: 2, style: 'solid' }, dynamic: [] })
    expect(byKey.get('sale-badge')).toMatchObject({ stroke: { style: 'solid' } })
    expect(design.fonts).toEqual([])
    expect(design.variations.map((v) => v.id)).toEqual(['story', 'thumbnail'])
  })

  it('a gradient background, filling in its defaults', () => {
    const stops = [
      { offset: 0, color: '#fff' },
      { offset: 1, color: 'black' },
    ]
    expect(validateDesign(doc({ background: { type: 'linear', stops } })).background).toEqual({ type: 'linear', angle: 180, stops })
    expect(validateDesign(doc({ background: { type: 'radial', stops } })).background).toEqual({ type: 'radial', center: { x: 0.5, y: 0.5 }, stops })
  })

  it.each(['#abc', '#aabbccdd', 'rgb(0 0 0 / 50%)', 'hsl(120, 50%, 50%)', 'rebeccapurple', 'transparent'])('the colour %s', (color) => {
    expect(validateDesign(doc({ background: color, components: [text({ color })] })).background).toBe(color)
  })

  it('https, data:image and asset: sources', () => {
    const images = ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=', 'asset:a_3Jx9Qm2LpZ7aK4tW'].map((src, i) => ({ type: 'image', key: `i${i}`, width: 1, height: 1, src }))
    expect(validateDesign(doc({ components: images })).components).toHaveLength(3)
  })

  it('an explicit empty dynamic list (nothing overridable)', () => {
    expect(validateDesign(doc({ components: [text({ dynamic: [] })] })).components[0]?.dynamic).toEqual([])
  })
})

describe('validateDesign › rejects the canvas', () => {
  it('0 wide', () => expectOne(doc({ width: 0 }), 'width', 'expected a whole number of pixels between 1 and 4096, received 0'))
  it('4097 wide', () => expectOne(doc({ width: 4097 }), 'width', 'expected a whole number of pixels between 1 and 4096, received 4097'))
  it('a non-integer width', () => expectOne(doc({ width: 10.5 }), 'width', 'expected a whole number of pixels between 1 and 4096, received 10.5'))
  it('a width given as a string', () => expectOne(doc({ width: '100' }), 'width', 'expected a whole number of pixels between 1 and 4096, received "100"'))
  it('version 1', () => expectOne(doc({ version: 1 }), 'version', 'expected version 2, received 1'))
  it('a document that is not an object', () => expectOne(42, '', 'expected object, received 42'))
  it('an unknown top-level field', () => expectOne(doc({ colour: 'red' }), '', 'unknown field "colour"'))
})

describe('validateDesign › rejects components', () => {
  it('an unknown component type', () =>
    expectOne(
      doc({ components: [{ type: 'video', key: 'v', width: 1, height: 1 }] }),
      'components[0].type',
      'expected "type" to be one of text, image, shape, qrcode, barcode, group, received "video"',
    ))

  it('a component without a type', () =>
    expectOne(
      doc({ components: [{ key: 'v', width: 1, height: 1 }] }),
      'components[0].type',
      'expected "type" to be one of text, image, shape, qrcode, barcode, group, received nothing',
    ))

  it('an unknown field (the typo fontsize)', () => expectOne(doc({ components: [text({ fontsize: 40 })] }), 'components[0]', 'unknown field "fontsize"'))

  it('fontSize "big", as a line of the message and as an issue', () => {
    const error = invalid(doc({ components: [text({ fontSize: 'big' })] }))
    expect(error.code).toBe('ERR_INVALID_DESIGN')
    expect(error.message.split('\n')).toContain('components[0].fontSize: expected a number between 1 and 1000, received "big"')
    expect(error.issues).toEqual([{ path: 'components[0].fontSize', message: 'expected a number between 1 and 1000, received "big"' }])
  })

  it('a missing width and height', () =>
    expectIssues(doc({ components: [{ type: 'shape', key: 's' }] }), [
      { path: 'components[0].width', message: 'expected a width between 0 and 100000 pixels, received nothing' },
      { path: 'components[0].height', message: 'expected a height between 0 and 100000 pixels, received nothing' },
    ]))

  it('a key with a space', () =>
    expectOne(doc({ components: [text({ key: 'my title' })] }), 'components[0].key', 'expected a key of letters, digits, "_" and "-" only, received "my title"'))

  it.each(['#12', 'nocolor', 'rgb(1,2)'])('the colour %s', (color) => {
    expectOne(doc({ components: [text({ color })] }), 'components[0].color', COLOUR_MESSAGE(color))
    expectOne(doc({ background: color }), 'background', COLOUR_MESSAGE(color))
  })

  it('a colour inside a gradient stop', () =>
    expectOne(
      doc({ background: { type: 'linear', stops: [{ offset: 0, color: '#fff' }, { offset: 1, color: 'nocolor' }] } }),
      'background.stops[1].color',
      COLOUR_MESSAGE('nocolor'),
    ))

  it('a gradient with one stop', () =>
    expectOne(
      doc({ components: [{ type: 'shape', key: 's', width: 1, height: 1, fill: { type: 'radial', stops: [{ offset: 0, color: '#fff' }] } }] }),
      'components[0].fill.stops',
      'expected at least 2 gradient stops, received an array',
    ))

  it('a gradient stop offset above 1', () =>
    expectOne(
      doc({ background: { type: 'linear', stops: [{ offset: 0, color: '#fff' }, { offset: 2, color: '#000' }] } }),
      'background.stops[1].offset',
      'expected a number between 0 and 1, received 2',
    ))

  it('opacity 2', () => expectOne(doc({ components: [text({ opacity: 2 })] }), 'components[0].opacity', 'expected a number between 0 and 1, received 2'))

  it('an image src /etc/passwd', () =>
    expectOne(
      doc({ components: [{ type: 'image', key: 'i', width: 1, height: 1, src: '/etc/passwd' }] }),
      'components[0].src',
      'expected an https URL, a data:image/… URI or asset:<id> (an uploaded asset), received "/etc/passwd"',
    ))

  it('an image src file:///etc/passwd', () =>
    expectOne(
      doc({ components: [{ type: 'image', key: 'i', width: 1, height: 1, src: 'file:///etc/passwd' }] }),
      'components[0].src',
      'expected an https URL, a data:image/… URI or asset:<id> (an uploaded asset), received "file:///etc/passwd"',
    ))

  it('an image src asset: with a path instead of an id (only asset:<id> of [A-Za-z0-9_-] is a reference)', () =>
    expectOne(
      doc({ components: [{ type: 'image', key: 'i', width: 1, height: 1, src: 'asset:../u_2/a_1' }] }),
      'components[0].src',
      'expected an https URL, a data:image/… URI or asset:<id> (an uploaded asset), received "asset:../u_2/a_1"',
    ))

  it('an error inside a group child, with its path', () =>
    expectOne(
      doc({ components: [{ type: 'group', key: 'g', width: 1, height: 1, children: [text({ fontSize: 0 })] }] }),
      'components[0].children[0].fontSize',
      'expected a number between 1 and 1000, received 0',
    ))
})

describe('validateDesign › rejects structure', () => {
  it('duplicate keys', () =>
    expectOne(doc({ components: [text(), text()] }), 'components[1].key', 'expected a unique key, received "title" (already used at components[0])'))

  it('a duplicate key inside a group', () =>
    expectOne(
      doc({ components: [text(), { type: 'group', key: 'g', width: 1, height: 1, children: [text()] }] }),
      'components[1].children[0].key',
      'expected a unique key, received "title" (already used at components[0])',
    ))

  it('a dynamic entry that is not a field of the type', () => {
    const error = invalid(doc({ components: [text({ dynamic: ['text', 'src'] })] }))
    expect(error.issues).toHaveLength(1)
    expect(error.issues[0]?.path).toBe('components[0].dynamic[1]')
    expect(error.issues[0]?.message).toMatch(/^expected a field of a text component \(x, y, width, height, .*fontSize.*\), received "src"$/)
  })

  it('a dynamic entry naming a structural field', () => {
    const error = invalid(doc({ components: [{ type: 'group', key: 'g', width: 1, height: 1, dynamic: ['children'] }] }))
    expect(error.issues.map((issue) => issue.path)).toEqual(['components[0].dynamic[0]'])
  })
})

describe('validateDesign › rejects variations', () => {
  const variation = (extra: Record<string, unknown> = {}) => ({ id: 'story', width: 1080, height: 1920, ...extra })

  it('the id "master"', () =>
    expectOne(doc({ variations: [variation({ id: 'master' })] }), 'variations[0].id', 'expected an id other than "master" (the base size), received "master"'))

  it('duplicate ids', () =>
    expectOne(doc({ variations: [variation(), variation({ width: 540 })] }), 'variations[1].id', 'expected a unique variation id, received "story"'))

  it('a size above 4096', () =>
    expectOne(doc({ variations: [variation({ height: 5000 })] }), 'variations[0].height', 'expected a whole number of pixels between 1 and 4096, received 5000'))

  it('a patch for an unknown key', () =>
    expectOne(
      doc({ components: [text()], variations: [variation({ components: { subtitle: { y: 10 } } })] }),
      'variations[0].components.subtitle',
      'expected the key of a component, received "subtitle"',
    ))

  it('a patch with an invalid value', () =>
    expectOne(
      doc({ components: [text()], variations: [variation({ components: { title: { fontSize: 'big' } } })] }),
      'variations[0].components.title.fontSize',
      'expected a number between 1 and 1000, received "big"',
    ))

  it('a patch with a field the type does not have', () =>
    expectOne(doc({ components: [text()], variations: [variation({ components: { title: { src: 'https://example.com/a.png' } } })] }), 'variations[0].components.title', 'unknown field "src"'))

  it('a patch that changes the key', () =>
    expectOne(doc({ components: [text()], variations: [variation({ components: { title: { key: 'other' } } })] }), 'variations[0].components.title.key', 'a variation cannot change "key"'))
})

const variation = (extra: Record<string, unknown> = {}) => ({ id: 'story', width: 1080, height: 1920, ...extra })
const AUTO = 'expected a height in pixels: "auto" (hug the lines) is for a text in a group with layout, received "auto"'
const column = (children: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'group', key: 'col', width: 100, height: 100, layout: { direction: 'column' }, children, ...extra })

describe('validateDesign › height "auto" of a text', () => {
  it('accepts it on a text in an auto-layout group, in the document and in a patch', () => {
    const design = validateDesign(doc({ components: [column([text({ height: 'auto' }), text({ key: 'sub' })])], variations: [variation({ components: { sub: { height: 'auto' } } })] }))
    const group = design.components[0] as { children: Array<{ height: unknown }> }
    expect(group.children[0]!.height).toBe('auto')
  })

  it('rejects it on a top-level text', () => expectOne(doc({ components: [text({ height: 'auto' })] }), 'components[0].height', AUTO))

  it('rejects it on a text in a group without layout', () =>
    expectOne(doc({ components: [column([text({ height: 'auto' })], { layout: undefined })] }), 'components[0].children[0].height', AUTO))

  it('rejects it in a variation patch of a text outside auto-layout', () =>
    expectOne(doc({ components: [text()], variations: [variation({ components: { title: { height: 'auto' } } })] }), 'variations[0].components.title.height', AUTO))

  it('rejects other words, and "auto" on other component types', () => {
    expectOne(doc({ components: [column([text({ height: 'hug' })])] }), 'components[0].children[0].height', 'expected a height between 0 and 100000 pixels, or "auto", received "hug"')
    expectOne(doc({ components: [column([{ type: 'shape', key: 's', width: 10, height: 'auto' }])] }), 'components[0].children[0].height', 'expected a height between 0 and 100000 pixels, received "auto"')
  })
})

describe('validateDesign › reports every problem at once', () => {
  it('counts every schema problem in one error', () => {
    const error = invalid({
      version: 1,
      width: 0,
      height: 4097,
      components: [
        { type: 'video', key: 'v', width: 1, height: 1 },
        text({ fontsize: 3, color: '#12', opacity: 2 }),
        { type: 'image', key: 'i', width: 1, height: 1, src: '/etc/passwd' },
      ],
      variations: [{ id: 'master', width: 1, height: 1 }],
    })
    // Order follows zod's checks (refinements such as colours come last); compare as a set.
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'version',
      'width',
      'height',
      'components[0].type',
      'components[1].color',
      'components[1].opacity',
      'components[1]',
      'components[2].src',
      'variations[0].id',
    ].sort())
    expect(error.message.split('\n')[0]).toBe('Invalid design document (9 problems):')
    expect(error.message.split('\n')).toHaveLength(10)
  })

  it('counts every structural problem in one error', () => {
    const error = invalid(
      doc({
        components: [text({ dynamic: ['src'] }), text()],
        variations: [
          { id: 'a', width: 1, height: 1, components: { nope: {} } },
          { id: 'a', width: 1, height: 1 },
        ],
      }),
    )
    expect(error.issues.map((issue) => issue.path)).toEqual(['components[0].dynamic[0]', 'components[1].key', 'variations[0].components.nope', 'variations[1].id'])
    expect(error.message).toMatch(/^Invalid design document \(4 problems\):\n/)
  })

  it('reports component and variation-patch problems in the same pass, each once, with "did you mean"', () => {
    expectIssues(
      doc({
        components: [text({ key: 'talk-title', fontSize: 'big' }), text({ key: 'speaker', colr: 'red' })],
        variations: [{ id: 'story', width: 100, height: 200, components: { 'talk-titel': { y: 3 }, speaker: { fontsize: 3, y: 4 }, 'talk-title': { y: 5 } } }],
      }),
      [
        { path: 'components[0].fontSize', message: 'expected a number between 1 and 1000, received "big"' },
        { path: 'components[1]', message: 'unknown field "colr"' },
        { path: 'variations[0].components.talk-titel', message: 'expected the key of a component, received "talk-titel"; did you mean "talk-title"?' },
        { path: 'variations[0].components.speaker', message: 'unknown field "fontsize"; did you mean "fontSize"?' },
      ],
    )
  })

  it('reports a patch value that is invalid once, at the patch, not again at the component', () =>
    expectIssues(doc({ components: [text({ fontSize: 'big' })], variations: [{ id: 'story', width: 1, height: 1, components: { title: { fontSize: 'huge', color: 'nocolour' } } }] }), [
      { path: 'components[0].fontSize', message: 'expected a number between 1 and 1000, received "big"' },
      { path: 'variations[0].components.title.fontSize', message: 'expected a number between 1 and 1000, received "huge"' },
      { path: 'variations[0].components.title.color', message: COLOUR_MESSAGE('nocolour') },
    ]))

  it('a patch field named "__proto__" is reported as unknown, not swallowed', () => {
    const error = invalid(JSON.parse('{"version":2,"width":100,"height":100,"components":[{"type":"text","key":"title","width":10,"height":10}],"variations":[{"id":"story","width":1,"height":1,"components":{"title":{"__proto__":{"y":1}}}}]}'))
    expect(error.issues).toEqual([{ path: 'variations[0].components.title', message: 'unknown field "__proto__"' }])
  })

  it('thousands of misspelt patch keys: refused quickly, "did you mean" for the first 20 only', () => {
    const components = Array.from({ length: 1000 }, (_, i) => text({ key: `component-number-${i}` }))
    const patches = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`component-numbr-${i}`, { y: 1 }]))
    const started = performance.now()
    const error = invalid(doc({ components, variations: [{ id: 'story', width: 1, height: 1, components: patches }] }))
    expect(performance.now() - started).toBeLessThan(5000)
    expect(error.issues).toHaveLength(5000)
    expect(error.issues.filter((issue) => issue.message.includes('did you mean')).length).toBe(20)
    expect(error.issues[0]!.message).toBe('expected the key of a component, received "component-numbr-0"; did you mean "component-number-0"?')
  })

  it('is a LithoError with a JSON form carrying the issues', () => {
    const error = invalid(doc({ width: 0 }))
    expect(error).toBeInstanceOf(Error)
    expect(error.toJSON()).toMatchObject({ name: 'LithoError', code: 'ERR_INVALID_DESIGN', issues: [{ path: 'width' }] })
  })
})

describe('isCssColor', () => {
  it.each([
    '#abc',
    '#ABCD',
    '#aabbcc',
    '#aabbccdd',
    ' #fff ',
    'red',
    'RebeccaPurple',
    'transparent',
    'rgb(255, 0, 0)',
    'rgba(0,0,0,0.5)',
    'rgb(0 0 0 / 50%)',
    'rgb(100% 0% 0%)',
    'RGB(1, 2, 3)',
    'hsl(120, 50%, 50%)',
    'hsla(120deg 50% 50% / 0.3)',
    'hsl(0.5turn 10% 10%)',
  ])('accepts %j', (value) => expect(isCssColor(value)).toBe(true))

  it.each([
    '',
    '   ',
    '#',
    '#12',
    '#12345',
    '#1234567',
    '#ggg',
    'abc',
    'nocolor',
    'currentColor',
    'inherit',
    'rgb(1,2)',
    'rgb(1, 2 3)',
    'rgb(1 2 3 4)',
    'rgb()',
    'hsl(120 50% 50%',
    'url(https://example.com/a.png)',
    'red; background: blue',
    `rgb(${'1'.repeat(60)}, 0, 0)`,
  ])('rejects %j', (value) => expect(isCssColor(value)).toBe(false))
})

describe('validateDesign › size limits', () => {
  const nest = (depth: number): Record<string, unknown> => {
    let node: Record<string, unknown> = { type: 'shape', key: 'leaf', width: 1, height: 1 }
    for (let i = 0; i < depth; i++) node = { type: 'group', key: `g${i}`, width: 10, height: 10, children: [node] }
    return node
  }

  it('accepts groups nested 16 deep', () => {
    expect(() => validateDesign({ version: 2, width: 10, height: 10, components: [nest(16)] })).not.toThrow()
  })

  it('refuses groups nested 17 deep, and a 100000-deep nest without exhausting the stack', () => {
    for (const depth of [17, 100_000]) {
      let error: unknown
      try {
        validateDesign({ version: 2, width: 10, height: 10, components: [nest(depth)] })
      } catch (e) {
        error = e
      }
      expect(LithoError.isInstance(error)).toBe(true)
      expect((error as LithoError).message).toContain('expected groups nested at most 16 deep, received deeper')
    }
  })

  it('refuses more than 2000 components in the whole document', () => {
    const group = (g: number) => ({ type: 'group', key: `g${g}`, width: 10, height: 10, children: Array.from({ length: 500 }, (_, i) => ({ type: 'shape', key: `s${g}_${i}`, width: 1, height: 1 })) })
    const ok = { version: 2, width: 10, height: 10, components: [group(0), group(1), group(2)] }
    expect(() => validateDesign(ok)).not.toThrow()
    const tooMany = { ...ok, components: [group(0), group(1), group(2), group(3)] }
    expect(() => validateDesign(tooMany)).toThrow(/components: expected at most 2000 components in the whole document/)
  })
})
