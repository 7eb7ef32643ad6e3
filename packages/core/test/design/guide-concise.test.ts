import { describe, expect, it } from 'vitest'
import { GUIDE_SECTIONS, getGuideSection } from '../../src/design/guide-concise.js'
import { getDesignGuide } from '../../src/design/guide.js'
import { SHARED_TYPES, DOCUMENT_TYPES, defOf, shapeOf } from '../../src/design/guide-schema.js'
import { COMPONENT_SCHEMAS, DesignDocumentSchema, OVERRIDABLE_FIELDS, type ComponentType } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'

const guide = getGuideSection()
const TYPES = Object.keys(COMPONENT_SCHEMAS) as ComponentType[]

/** The text of the `### <name>` section (up to the next heading). */
function section(text: string, name: string): string {
  const start = text.indexOf(`\n### ${name}\n`)
  expect(start, `a "### ${name}" section`).toBeGreaterThan(0)
  const end = text.slice(start + 5).search(/\n##/)
  return end === -1 ? text.slice(start) : text.slice(start, start + 5 + end)
}

/** The field lines of a section or of the "Fields of every type" list: name → line. */
const fieldLine = (text: string, name: string): string | undefined => text.split('\n').find((line) => line.startsWith(`- \`${name}\` `))

describe('the concise design guide', () => {
  it('is at most 15 KB, a quarter of what the tool returned before (about 60 KB)', () => {
    expect(Buffer.byteLength(guide, 'utf8')).toBeLessThanOrEqual(15_000)
    expect(getGuideSection('guide')).toBe(guide)
  })

  it('lists every field of every component type, with the overridable ones marked (derived from the schema)', () => {
    const common = guide.slice(guide.indexOf('## Components'), guide.indexOf('\n### '))
    for (const type of TYPES) {
      const own = section(guide, type)
      for (const name of Object.keys(shapeOf(COMPONENT_SCHEMAS[type]))) {
        const line = fieldLine(own, name) ?? fieldLine(common, name)
        expect(line, `${type}.${name}`).toBeDefined()
        if (fieldLine(own, name)) expect(line!.includes('[overridable]'), `${type}.${name} overridable`).toBe(OVERRIDABLE_FIELDS[type].includes(name))
      }
    }
  })

  it('lists every document field and every field of the shared types', () => {
    for (const name of Object.keys(shapeOf(DesignDocumentSchema))) expect(fieldLine(guide, name), `document.${name}`).toBeDefined()
    for (const [name, schema] of [...DOCUMENT_TYPES, ...SHARED_TYPES]) {
      const text = section(guide, name)
      if (defOf(schema).type === 'object') for (const field of Object.keys(shapeOf(schema))) expect(fieldLine(text, field), `${name}.${field}`).toBeDefined()
    }
  })

  it('says plainly what authors get wrong: x/y default, unmentioned components in variations, autoFit with maxLines, image sources, rendering', () => {
    expect(guide).toContain('`x` and `y` (the top-left corner of the box) default to 0')
    expect(guide).toMatch(/every component or field it does not mention keeps its base value and position as is \(not scaled or moved\)/)
    expect(guide).toMatch(/without `components` draws the whole base layout scaled uniformly/)
    expect(guide).toMatch(/If even `min` does not fit, it renders at `min`: lines beyond `maxLines` are cut/)
    expect(guide).toContain('`asset:<id>` reference to an image uploaded with `upload_asset`')
    expect(guide).toContain('fetched by the server at render time')
    expect(guide).toContain('POST /settings/api-keys')
    expect(guide).toContain('litho keys create')
    expect(guide).toMatch(/format=png&variation=story/)
  })

  it('its worked example is a valid document', () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(guide.slice(guide.indexOf('## Worked example')))
    expect(validateDesign(JSON.parse(block![1]!)).components).toHaveLength(3)
  })
})

describe('getGuideSection', () => {
  it('serves each component type\'s part of the full reference: every field described, an example, then the common fields', () => {
    for (const type of TYPES) {
      const text = getGuideSection(type)
      expect(text.startsWith(`# Litho design guide: ${type}\n\n### ${type}\n`)).toBe(true)
      for (const name of Object.keys(shapeOf(COMPONENT_SCHEMAS[type]))) expect(text, `${type}.${name}`).toMatch(new RegExp(`\\| \`${name}\` \\|`))
      const block = /```json\n([\s\S]*?)\n```/.exec(text)
      expect(JSON.parse(block![1]!).type).toBe(type)
      expect(text).toContain('Plus the common fields below.')
      expect(text.split('\n### ')).toHaveLength(2) // its own section only
    }
  })

  it('serves the JSON Schema, the long examples and the full reference', () => {
    expect(GUIDE_SECTIONS).toEqual(['guide', 'schema', 'examples', 'full', ...TYPES])
    expect(JSON.parse(getGuideSection('schema'))).toEqual(getDesignGuide().jsonSchema)
    expect(getGuideSection('full')).toBe(getDesignGuide().markdown)
    const examples = getGuideSection('examples')
    for (const type of TYPES) {
      const block = /```json\n([\s\S]*?)\n```/.exec(section(examples, type))
      expect(JSON.parse(block![1]!).type).toBe(type)
    }
    const complete = /```json\n([\s\S]*?)\n```/.exec(examples.slice(examples.indexOf('## Complete example')))
    expect(validateDesign(JSON.parse(complete![1]!)).variations).toHaveLength(2)
  })
})
