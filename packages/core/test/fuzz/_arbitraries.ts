// Generators for the fuzz suite: design documents built from the real schema
// (packages/core/src/design/schema.ts, docs/design-document.md), mostly valid so that most cases
// reach overrides, variations and layout, then mutated the way hostile or careless input
// looks (wrong types, huge numbers, NaN-ish strings, deep nesting, unicode, `__proto__`
// keys, very long strings). Also override sets in every form the API accepts.
import fc from 'fast-check'
import { BARCODE_SYMBOLOGIES, OVERRIDABLE_FIELDS } from '../../src/design/schema.js'

/** A 1x1 PNG, so that full renders never need the network. */
export const PNG_1X1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const SVG_DATA = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="red"/></svg>').toString('base64')}`

/** Strings that break naive parsers: NaN-ish numbers, unicode, bidi controls, markup, paths. */
const NASTY_STRINGS = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '1e999', '-0', '0x10', ' 12 ', '1_000', '1,5', '١٢٣', '12px', 'true', 'null', 'undefined',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '{}', '[]', '{"type":"linear"}', '{"__proto__":{"x":1}}',
  '%ZZ', '%00', '\u0000', '\uFFFF', '\uD800', '\u202E', '\u200B', 'e\u0301', '👩‍👩‍👧‍👦', '🏳️‍🌈', 'مرحبا', 'שלום', '日本語', '\n\n\n', '\t',
  '<script>alert(1)</script>', '"><img src=x>', '../../etc/passwd', 'javascript:alert(1)', 'data:,', 'data:image/png;base64,!!!',
  'rgb(', 'rgb(0 0 0 / 50%)', 'hsl(999999999deg 0% 0%)', '#', '#12345', '#gggggg', 'transparent', 'currentColor',
] as const

/** Numbers at the edges of every range in the schema, and past them. */
const NASTY_NUMBERS = [0, -0, -1, 1, 0.5, 1e-7, 99.999, 100, 1000, 1001, 4096, 4097, 100000, 100001, 2 ** 31, 2 ** 53 + 1, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON] as const

const CSS_COLORS = ['#000', '#fff', '#1a1a1a', '#1a1a1a80', '#abcd', 'red', 'rebeccapurple', 'transparent', 'rgb(10, 20, 30)', 'rgba(0,0,0,0.5)', 'rgb(0 0 0 / 50%)', 'hsl(210 40% 50%)', 'hsla(0, 100%, 50%, .3)'] as const

/** A CSS colour the schema accepts. */
export const color = fc.oneof(fc.constantFrom(...CSS_COLORS), fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`))

const stop = fc.record({ offset: fc.double({ min: 0, max: 1, noNaN: true }), color })
/** A paint: a colour or a gradient. */
export const paint = fc.oneof(
  { weight: 3, arbitrary: color },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('linear' as const), angle: fc.double({ min: -720, max: 720, noNaN: true }), stops: fc.array(stop, { minLength: 2, maxLength: 4 }) }, { requiredKeys: ['type', 'stops'] }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('radial' as const), center: fc.record({ x: fc.double({ min: 0, max: 1, noNaN: true }), y: fc.double({ min: 0, max: 1, noNaN: true }) }), stops: fc.array(stop, { minLength: 2, maxLength: 4 }) }, { requiredKeys: ['type', 'stops'] }) },
)

/** Text people put in designs: words, numbers, emoji, RTL and CJK scripts, newlines. */
export const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('Hello', 'Summer sale', '50% off', 'Line one\nLine two', 'مرحبا بالعالم', 'שלום עולם', '日本語のテキスト', '한국어', 'Emoji 🎉👩‍💻', 'Café crème', '', 'A'.repeat(300)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
)

/** Values each symbology encodes. */
const GOOD_BARCODES: ReadonlyArray<readonly [string, string]> = [
  ['code128', 'Hello 128'], ['code128', 'INV-2026-0042'], ['ean13', '4006381333931'], ['ean13', '400638133393'], ['ean8', '96385074'], ['upca', '012345678905'],
  ['upce', '01234565'], ['code39', 'CODE39 TEXT'], ['itf14', '00012345678905'], ['datamatrix', 'https://example.com/p/1'], ['pdf417', 'Ticket 42 / Row 7'],
]

const box = (size: { maxSize: number }) => ({
  x: fc.integer({ min: -50, max: size.maxSize }),
  y: fc.integer({ min: -50, max: size.maxSize }),
  width: fc.integer({ min: 0, max: size.maxSize }),
  height: fc.integer({ min: 0, max: size.maxSize }),
  rotation: fc.integer({ min: -360, max: 360 }),
  opacity: fc.double({ min: 0, max: 1, noNaN: true }),
  visible: fc.boolean(),
  border: fc.record({ color, width: fc.integer({ min: 0, max: 12 }), style: fc.constantFrom('solid', 'dashed', 'dotted') }, { requiredKeys: [] }),
  radius: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.record({ topLeft: fc.nat(60), topRight: fc.nat(60), bottomRight: fc.nat(60), bottomLeft: fc.nat(60) }, { requiredKeys: [] })),
  name: fc.string({ maxLength: 20 }),
})
const REQUIRED = ['type', 'width', 'height'] as const
type Raw = Record<string, unknown>

/** A dynamic list: mostly the type's default (omitted), sometimes an explicit subset, rarely empty. */
const dynamicFor = (type: keyof typeof OVERRIDABLE_FIELDS) => fc.subarray([...OVERRIDABLE_FIELDS[type]], { minLength: 0, maxLength: 8 })

/** Options of {@link designDocument}. */
export interface DesignOptions {
  /** Largest base size and component box (small for full renders). */
  maxSize: number
  /** Most components per list. */
  maxComponents: number
  /** Only data: URIs for images and no fonts[] (full renders must not reach the network). */
  offline?: boolean
}

function components(options: DesignOptions): fc.Arbitrary<Raw[]> {
  const common = box(options)
  const src = options.offline
    ? fc.constantFrom(PNG_1X1, SVG_DATA, 'data:image/png;base64,AAAA', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=')
    : fc.oneof(fc.constantFrom(PNG_1X1, SVG_DATA, 'https://images.example.com/a.png', 'https://cdn.example.org/photo.jpg?w=400', 'http://10.0.0.1/x.png'), fc.webUrl({ validSchemes: ['https'] }))
  const textC = fc.record({ type: fc.constant('text'), ...common, text, fontFamily: fc.constantFrom('sans-serif', 'serif', 'monospace', 'Inter', 'Noto Serif', 'JetBrains Mono', 'Brand', 'Comic Sans MS'), fontSize: fc.integer({ min: 1, max: 200 }), fontWeight: fc.oneof(fc.constantFrom(100, 400, 700, 900), fc.constantFrom('normal', 'bold')), fontStyle: fc.constantFrom('normal', 'italic'), color, align: fc.constantFrom('left', 'center', 'right', 'justify'), verticalAlign: fc.constantFrom('top', 'middle', 'bottom'), lineHeight: fc.double({ min: 0.5, max: 5, noNaN: true }), letterSpacing: fc.integer({ min: -10, max: 40 }), maxLines: fc.integer({ min: 1, max: 6 }), autoFit: fc.record({ min: fc.integer({ min: 1, max: 40 }) }, { requiredKeys: [] }), textTransform: fc.constantFrom('none', 'uppercase', 'lowercase', 'capitalize'), direction: fc.constantFrom('auto', 'ltr', 'rtl'), stroke: fc.record({ color, width: fc.integer({ min: 0, max: 6 }) }, { requiredKeys: [] }), shadow: fc.record({ x: fc.integer({ min: -20, max: 20 }), y: fc.integer({ min: -20, max: 20 }), blur: fc.integer({ min: 0, max: 30 }), color }, { requiredKeys: [] }), background: paint, padding: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.record({ top: fc.nat(20), right: fc.nat(20), bottom: fc.nat(20), left: fc.nat(20) }, { requiredKeys: [] })), dynamic: dynamicFor('text') }, { requiredKeys: [...REQUIRED] })
  const imageC = fc.record({ type: fc.constant('image'), ...common, src, fit: fc.constantFrom('cover', 'contain', 'fill'), focus: fc.record({ x: fc.double({ min: 0, max: 1, noNaN: true }), y: fc.double({ min: 0, max: 1, noNaN: true }) }), dynamic: dynamicFor('image') }, { requiredKeys: [...REQUIRED] })
  const shapeC = fc.record({ type: fc.constant('shape'), ...common, shape: fc.constantFrom('rectangle', 'ellipse', 'line'), fill: paint, stroke: fc.record({ color, width: fc.integer({ min: 0, max: 20 }), style: fc.constantFrom('solid', 'dashed', 'dotted') }, { requiredKeys: [] }), dynamic: dynamicFor('shape') }, { requiredKeys: [...REQUIRED] })
  const qrC = fc.record({ type: fc.constant('qrcode'), ...common, value: fc.oneof(fc.constantFrom('https://example.com/p/123', 'WIFI:S:cafe;T:WPA;P:secret;;', '12345'), fc.string({ minLength: 1, maxLength: 80 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })), color, background: color, errorCorrection: fc.constantFrom('L', 'M', 'Q', 'H'), margin: fc.integer({ min: 0, max: 16 }), dynamic: dynamicFor('qrcode') }, { requiredKeys: [...REQUIRED, 'value'] })
  // Mostly a value its symbology encodes; sometimes any value (which may be refused).
  const symbologyValue = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...GOOD_BARCODES) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...BARCODE_SYMBOLOGIES), fc.oneof(fc.stringMatching(/^[0-9]{1,14}$/), fc.string({ minLength: 1, maxLength: 30 }))) },
  )
  const barcodeC = fc
    .tuple(fc.record({ type: fc.constant('barcode'), ...common, color, background: color, showText: fc.boolean(), dynamic: dynamicFor('barcode') }, { requiredKeys: [...REQUIRED] }), symbologyValue)
    .map(([c, [symbology, value]]) => ({ ...c, symbology, value }))
  const leaf = fc.oneof(textC, imageC, shapeC, qrC, barcodeC)
  const { tree } = fc.letrec<{ tree: Raw[]; node: Raw; group: Raw }>((tie) => ({
    tree: fc.array(tie('node'), { maxLength: options.maxComponents }),
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('group')),
    group: fc.record(
      {
        type: fc.constant('group'),
        ...common,
        layout: fc.record({ direction: fc.constantFrom('row', 'column'), gap: fc.integer({ min: 0, max: 40 }), align: fc.constantFrom('start', 'center', 'end', 'stretch'), justify: fc.constantFrom('start', 'center', 'end', 'space-between', 'space-around', 'space-evenly'), padding: fc.integer({ min: 0, max: 30 }), wrap: fc.boolean() }, { requiredKeys: [] }),
        background: paint,
        clip: fc.boolean(),
        dynamic: dynamicFor('group'),
        children: tie('tree'),
      },
      { requiredKeys: [...REQUIRED, 'children'] },
    ),
  }))
  return tree as fc.Arbitrary<Raw[]>
}

/** Keys `c0`, `c1`, … in document order, so that overrides and patches can name real components. */
function assignKeys(list: Raw[], next = { i: 0 }): Raw[] {
  return list.map((component) => {
    const out: Raw = { ...component, key: `c${next.i++}` }
    if (Array.isArray(component.children)) out.children = assignKeys(component.children as Raw[], next)
    return out
  })
}

/** Field names overrides and patches may use, and some that name nothing. */
const FIELDS = [...new Set(Object.values(OVERRIDABLE_FIELDS).flat()), 'key', 'type', 'children', 'dynamic', 'nope', '__proto__', 'constructor']
/** Component keys: mostly real (c0…c7), sometimes not. */
export const componentKey = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 7 }).map((i) => `c${i}`) }, { weight: 1, arbitrary: fc.constantFrom('missing', '__proto__', 'constructor', 'C0', '', 'c0 ') })

/** A value an override or a patch might carry: right types, wrong types and edge cases. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: color },
  { weight: 1, arbitrary: paint },
  { weight: 2, arbitrary: fc.integer({ min: -100, max: 2000 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_NUMBERS) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(PNG_1X1, 'https://images.example.com/b.png', 'left', 'center', 'ellipse', 'code128', 'H', 'bold', 'uppercase') },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

/** Patched components: nearly always the first ones (which every document with components has). */
const patchKey = fc.oneof({ weight: 12, arbitrary: fc.constantFrom('c0', 'c0', 'c1') }, { weight: 1, arbitrary: componentKey })

/** A patch: mostly geometry every component has (x, y, width, …), sometimes any field and value. */
const patch = fc.oneof(
  { weight: 6, arbitrary: fc.record({ x: fc.integer({ min: -100, max: 1200 }), y: fc.integer({ min: -100, max: 1200 }), width: fc.integer({ min: 0, max: 1200 }), height: fc.integer({ min: 0, max: 1200 }), visible: fc.boolean(), opacity: fc.double({ min: 0, max: 1, noNaN: true }), rotation: fc.integer({ min: -90, max: 90 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 2 }) },
)

const variation = fc.record(
  {
    id: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('story', 'square', 'banner') }, { weight: 1, arbitrary: fc.constantFrom('master', 'bad id', '', '__proto__') }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/) }),
    name: fc.string({ maxLength: 12 }),
    width: fc.integer({ min: 1, max: 1200 }),
    height: fc.integer({ min: 1, max: 1200 }),
    components: fc.dictionary(patchKey, patch, { maxKeys: 2 }),
  },
  { requiredKeys: ['id', 'width', 'height'] },
)

/** A design document that is valid or close to it (before mutation). */
export function designDocument(options: DesignOptions): fc.Arbitrary<Raw> {
  const fonts = options.offline
    ? fc.constant(undefined)
    : fc.option(fc.array(fc.record({ family: fc.constantFrom('Brand', 'Display'), src: fc.constantFrom('https://fonts.example.com/brand.woff2', 'data:font/ttf;base64,AAAA'), weight: fc.constantFrom(400, 700), style: fc.constantFrom('normal', 'italic') }, { requiredKeys: ['family', 'src'] }), { maxLength: 2 }), { nil: undefined })
  return fc
    .record({
      name: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
      width: fc.integer({ min: 1, max: options.maxSize }),
      height: fc.integer({ min: 1, max: options.maxSize }),
      background: fc.option(paint, { nil: undefined }),
      fonts,
      components: components(options),
      variations: fc.option(fc.uniqueArray(variation, { maxLength: 2, selector: (v) => v.id }), { nil: undefined }),
    })
    .map(({ components: list, ...rest }) => {
      const doc: Raw = { version: 2, components: assignKeys(list) }
      for (const [k, v] of Object.entries(rest)) if (v !== undefined) doc[k] = v
      return doc
    })
}

// ---------------------------------------------------------------------------
// Mutations

/** A value that replaces a field: wrong types, edge numbers, long strings, deep nesting. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_NUMBERS, NaN, Infinity, -Infinity) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}, [null], { type: 'group' }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '9', '🎉', 'ن'), fc.integer({ min: 1000, max: 20_000 })).map(([s, n]) => s.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 400 }).map((depth) => nest(depth)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 60 }).map((depth) => deepGroups(depth)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }) },
)

function nest(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
  return value
}

function deepGroups(depth: number): unknown {
  let children: unknown[] = [{ type: 'shape', key: 'deep-leaf', width: 1, height: 1 }]
  for (let i = 0; i < depth; i++) children = [{ type: 'group', key: `deep${i}`, width: 10, height: 10, children }]
  return children
}

/** One change somewhere in the document: replace a value, add a field, delete one, or add a prototype key. */
const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'replace', 'replace', 'add', 'delete', 'proto'),
  name: fc.constantFrom(...FIELDS, '__proto__', 'constructor', 'prototype', 'children', 'components', 'variations', 'version', '', 'x'),
  value: hostileValue,
})
/** One change to a document (see {@link mutate}). */
export type Mutation = { at: number; kind: string; name: string; value: unknown }

function containers(root: unknown): Array<Raw | unknown[]> {
  // Iterative, with a visited set: a hostile value may be thousands of levels deep (a recursive
  // walk overflowed the stack on one) and a mutation may put a node inside itself.
  const out: Array<Raw | unknown[]> = []
  const seen = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    // Only arrays and plain objects: a boxed String's indexes cannot be redefined.
    const proto = Object.getPrototypeOf(value) as unknown
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) continue
    seen.add(value)
    out.push(value as Raw)
    stack.push(...Object.values(value).reverse())
  }
  return out
}

/** A deep copy where one can be made (values with symbols or functions are used as they are). */
function fresh(value: unknown): unknown {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/** Defines an own property, even `__proto__` (plain assignment would set the prototype). */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Applies `mutations` to a copy of `doc`. */
export function mutate(doc: Raw, mutations: readonly Mutation[]): unknown {
  const copy = structuredClone(doc)
  for (const m of mutations) {
    const nodes = containers(copy)
    const node = nodes[m.at % nodes.length]!
    const keys = Object.keys(node)
    const key = Array.isArray(node) ? String(m.at % Math.max(1, node.length)) : keys.length > 0 ? keys[m.at % keys.length]! : m.name
    // A fresh copy of the value each time: fast-check may hand the same object to two
    // mutations, and inserting it twice could put a node inside itself (a cyclic document,
    // which no JSON request can carry).
    const value = fresh(m.value)
    if (m.kind === 'replace') define(node, key, value)
    else if (m.kind === 'add') define(node, m.name, value)
    else if (m.kind === 'delete') delete (node as Raw)[key]
    else define(node, '__proto__', value ?? { polluted: true })
  }
  return copy
}

/** A document, mostly valid (three in five unmutated), else mutated 1-3 times. */
export function fuzzedDocument(options: DesignOptions): fc.Arbitrary<unknown> {
  return fc
    .tuple(designDocument(options), fc.oneof({ weight: 3, arbitrary: fc.constant([] as Mutation[]) }, { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }))
    .map(([doc, mutations]) => mutate(doc, mutations))
}

// ---------------------------------------------------------------------------
// Overrides

const overrideKey = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(componentKey, fc.constantFrom(...FIELDS)).map(([k, f]) => `${k}.${f}`) },
  { weight: 2, arbitrary: fc.tuple(componentKey, fc.constantFrom('stroke', 'border', 'shadow', 'fill', 'background', 'focus', 'autoFit', 'padding', 'layout', 'radius'), fc.constantFrom('color', 'width', 'x', 'y', 'min', 'top', 'stops', 'type', '__proto__', 'constructor', 'a.b')).map(([k, f, s]) => `${k}.${f}.${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('c0', 'format', 'quality', 'variation', 'key', '.', '..', 'c0.', '.text', 'c0..text', '__proto__.polluted', 'constructor.prototype.x') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
)

/** A query-string value: what a browser would send, including JSON and numbers as text. */
const queryValue = fc.oneof(
  { weight: 4, arbitrary: fieldValue.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')) },
  { weight: 1, arbitrary: fc.constantFrom('12', ' 12 ', '1e3', '.5', '-0', '+7', 'true', '1', '0', '{"type":"linear","stops":[{"offset":0,"color":"red"},{"offset":1,"color":"blue"}]}', '{bad json', '[1,2]') },
  // Digit runs, kept short: a long one is the known quadratic NUMERIC pattern (docs/security.md), fixed elsewhere.
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,200}$/) },
)

/** Overrides as a query string. */
export const queryOverrides = fc.array(fc.tuple(overrideKey, queryValue), { maxLength: 6 }).map((pairs) => new URLSearchParams(pairs).toString())
/** Overrides as a flat `{ 'key.field': value }` object, with hostile keys defined as own properties. */
export const flatOverrides = fc.array(fc.tuple(overrideKey, fieldValue), { maxLength: 6 }).map((pairs) => {
  const out: Raw = {}
  for (const [k, v] of pairs) define(out, k, v)
  return out
})
/** Overrides as a nested `{ key: { field: value } }` object. */
export const nestedOverrides = fc.dictionary(componentKey, fc.oneof(fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 3 }), fieldValue), { maxKeys: 3 })

/** Any override input: a query string, an object, a list of those, or something that is neither. */
export const overrideInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: queryOverrides },
  { weight: 3, arbitrary: flatOverrides },
  { weight: 2, arbitrary: nestedOverrides },
  { weight: 2, arbitrary: fc.array(fc.oneof(queryOverrides, flatOverrides, nestedOverrides), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 42, true, ['x'], [[1]], new Date(0)) },
)

/** A variation id to render: mostly one a generated document may have. */
export const variationId = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(undefined, '', 'master') },
  { weight: 3, arbitrary: fc.constantFrom('story', 'square', 'banner') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
)
