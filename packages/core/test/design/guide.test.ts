import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DESIGN_DOCS_FILES, getDesignGuide, renderDesignDocs } from '../../src/design/guide.js'
import { COMPONENT_SCHEMAS, DEFAULT_DYNAMIC, type ComponentInput } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'

const TYPES = Object.keys(COMPONENT_SCHEMAS).sort()
const docsFile = (name: string) => readFileSync(new URL(`../../../../docs/${name}`, import.meta.url), 'utf8')

/** Every component of a tree, depth-first. */
function flatten(components: readonly ComponentInput[] | undefined): ComponentInput[] {
  return (components ?? []).flatMap((component) => [component, ...(component.type === 'group' ? flatten(component.children) : [])])
}

describe('getDesignGuide', () => {
  const guide = getDesignGuide()

  it('is memoised and deeply frozen', () => {
    expect(getDesignGuide()).toBe(guide)
    expect(Object.isFrozen(guide)).toBe(true)
    expect(Object.isFrozen(guide.components[0]?.fields[0])).toBe(true)
    expect(Object.isFrozen(guide.example.components)).toBe(true)
  })

  it('lists every component type exactly once', () => {
    expect(guide.version).toBe(2)
    expect(guide.components.map((c) => c.type).sort()).toEqual(TYPES)
  })

  it('derives each type\'s fields from the schema, in schema order', () => {
    for (const component of guide.components) {
      expect(component.fields.map((f) => f.name)).toEqual(Object.keys(COMPONENT_SCHEMAS[component.type].shape))
      expect(component.defaultDynamic).toEqual(DEFAULT_DYNAMIC[component.type])
      expect(component.summary.length).toBeGreaterThan(40)
    }
  })

  it('describes every field', () => {
    for (const component of guide.components)
      for (const field of component.fields) expect(field.description, `${component.type}.${field.name}`).not.toBe('')
  })

  it('reports text.fontSize with its range and default 32', () => {
    const text = guide.components.find((c) => c.type === 'text')
    expect(text?.fields.find((f) => f.name === 'fontSize')).toEqual({
      name: 'fontSize',
      type: 'number (1–1000)',
      default: 32,
      description: 'Font size in pixels.',
      required: false,
    })
  })

  it('writes readable types: enums, shared types, unions, required fields', () => {
    const fields = (type: string) => new Map(guide.components.find((c) => c.type === type)?.fields.map((f) => [f.name, f]))
    const text = fields('text')
    expect(text.get('align')).toMatchObject({ type: '"left" | "center" | "right" | "justify"', default: 'left' })
    expect(text.get('background')?.type).toBe('Paint')
    expect(text.get('visible')).toMatchObject({ type: 'boolean', default: true, required: false })
    expect(text.get('fontWeight')?.type).toBe('integer (100–900) | "normal" | "bold"')
    expect(text.get('key')?.required).toBe(true)
    expect(text.get('width')?.required).toBe(true)
    expect(text.get('type')).toMatchObject({ type: '"text"', required: true })
    expect(text.get('maxLines')).not.toHaveProperty('default')
    expect(fields('group').get('children')?.type).toBe('Component[]')
  })

  it('gives one example per type, of that type, that validates on its own', () => {
    for (const component of guide.components) {
      expect(component.example.type).toBe(component.type)
      expect(() => validateDesign({ version: 2, width: 1080, height: 1080, components: [component.example] })).not.toThrow()
    }
  })

  it('gives a whole-document example that validates and uses every type, auto-layout and a story variation', () => {
    const { example } = guide
    expect(() => validateDesign(example)).not.toThrow()
    expect([example.width, example.height]).toEqual([1080, 1080])
    const all = flatten(example.components)
    expect([...new Set(all.map((c) => c.type))].sort()).toEqual(TYPES)
    expect(all.some((c) => c.type === 'group' && c.layout !== undefined && (c.children?.length ?? 0) > 1)).toBe(true)
    const story = example.variations?.find((v) => v.id === 'story')
    expect(story).toMatchObject({ width: 1080, height: 1920 })
    expect(Object.keys(story?.components ?? {}).length).toBeGreaterThan(0)
  })

  it('renders offline: image sources are small inline PNGs', () => {
    const images = [...flatten(guide.example.components), ...guide.components.map((c) => c.example)].filter((c) => c.type === 'image')
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) {
      expect(image.src).toMatch(/^data:image\/png;base64,/)
      expect(image.src?.length).toBeLessThan(1024)
    }
    expect(JSON.stringify(guide.example)).not.toMatch(/"src":"https?:/)
  })

  it('has a JSON Schema of the input that lists all six types and survives JSON', () => {
    const schema = guide.jsonSchema
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema)
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.required).toEqual(['version', 'width', 'height']) // defaults are optional in the input form
    const component = (schema.$defs as Record<string, { oneOf: Array<{ properties: { type: { const: string } } }> }>).Component
    expect(component?.oneOf.map((option) => option.properties.type.const).sort()).toEqual(TYPES)
    expect(JSON.stringify(schema)).not.toContain('__schema')
  })

  it('has an overview covering the essentials', () => {
    for (const topic of ['top-left', 'first is at the bottom', '"radial"', 'sans-serif', 'JetBrains Mono', 'data.flatten', 'title.text', 'master', '4096', 'Emoji'])
      expect(guide.overview).toContain(topic)
  })

  it('renders Markdown with a heading, field table and example per type', () => {
    const { markdown } = guide
    for (const type of TYPES) expect(markdown).toContain(`\n### ${type}\n`)
    expect(markdown).toContain('| `fontSize` | `number (1–1000)` | `32` | Font size in pixels. |')
    expect(markdown).toContain('| `align` | `"left" \\| "center" \\| "right" \\| "justify"` |')
    expect(markdown.match(/```json\n/g)).toHaveLength(TYPES.length + 1)
    expect(markdown.startsWith('# ')).toBe(true)
  })
})

describe('generated docs', () => {
  it('docs/design-document.md is what the generator produces now', () => {
    // If this fails, run `npx tsx packages/core/scripts/gen-docs.ts` from the repo root.
    expect(docsFile(DESIGN_DOCS_FILES.markdown)).toBe(renderDesignDocs().markdown)
  })

  it('docs/design-document.schema.json is what the generator produces now', () => {
    expect(docsFile(DESIGN_DOCS_FILES.jsonSchema)).toBe(renderDesignDocs().jsonSchema)
  })

  it('starts with a "generated — do not edit" header', () => {
    expect(renderDesignDocs().markdown).toMatch(/^<!-- Generated .* Do not edit/)
  })
})
