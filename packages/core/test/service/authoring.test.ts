import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { memoryMeter } from '@litho/storage-adapters/memory'
import type { DesignStore, Meter } from '../../src/contracts/index.js'
import {
  CreateDesignInputSchema,
  DeleteDesignInputSchema,
  DesignPatchSchema,
  DesignResourceSchema,
  LithoError,
  PreviewDesignInputSchema,
  PublishDesignInputSchema,
  UpdateDesignInputSchema,
  createDesign,
  createRenderer,
  deleteDesign,
  getDesign,
  previewDesign,
  publishDesign,
  updateDesign,
  type DesignDocument,
  type DesignPatch,
  type RenderOptions,
  type RenderResult,
} from '../../src/index.js'
import { documentFixture, rejection } from './helpers.js'

const alice = { id: 'u_alice', plan: 'free' as const }
const bob = { id: 'u_bob', plan: 'pro' as const }

/** A clock that moves one second per call. */
function steppingClock(start = Date.UTC(2026, 10, 23, 10)) {
  let t = start
  return { now: () => new Date((t += 1000)) }
}

function setup(): { designs: DesignStore; meter: Meter; clock: ReturnType<typeof steppingClock> } {
  return { designs: memoryDesignStore(), meter: memoryMeter(), clock: steppingClock() }
}

type Json = Record<string, unknown>

/** The fixture with a stroke on the title, so nested merges can be seen. */
function cardDocument(): Json {
  const doc = documentFixture()
  const components = doc.components as Json[]
  components[0] = { ...components[0], stroke: { color: '#ff0000', width: 1 }, maxLines: 2, dynamic: ['text', 'color'] }
  return doc
}

const keysOf = (list: unknown): string[] => (list as Json[]).map((c) => c.key as string)
const componentsOf = (doc: unknown): Json[] => (doc as { components: Json[] }).components

async function createdFor(services: ReturnType<typeof setup>, options: { publish?: boolean; document?: Json; account?: typeof alice | typeof bob } = {}) {
  return createDesign(services, { account: options.account ?? alice, name: 'Card', document: options.document ?? cardDocument(), publish: options.publish })
}

describe('createDesign', () => {
  it('authoring › stores the document as the draft and returns the getDesign record', async () => {
    const services = setup()
    const document = cardDocument()
    const created = await createDesign(services, { account: alice, name: '  Product card  ', document })
    expect(created._id).toMatch(/^d_[A-Za-z0-9_-]{16}$/)
    expect(created.renderCode).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(created).toMatchObject({ name: 'Product card', design: null, draft: document, createdAt: '2026-11-23T10:00:01.000Z', updatedAt: '2026-11-23T10:00:01.000Z' })
    expect(DesignResourceSchema.parse(created)).toEqual(created)
    expect(await getDesign(services, { account: alice, id: created._id })).toEqual(created)
    // Stored as written: no defaults filled in, and a copy of the input.
    expect((created.draft as Json).fonts).toBeUndefined()
    ;(document.components as Json[]).pop()
    expect(componentsOf((await services.designs.get(created._id))!.draft)).toHaveLength(3)
    expect((await services.designs.get(created._id))!.ownerId).toBe(alice.id)
  })

  it('authoring › publish: true publishes at once, with no draft', async () => {
    const services = setup()
    const created = await createdFor(services, { publish: true })
    expect(created.design).toEqual(cardDocument())
    expect(created).not.toHaveProperty('draft')
    const other = await createdFor(services, { publish: true })
    expect(other._id).not.toBe(created._id)
    expect(other.renderCode).not.toBe(created.renderCode)
  })

  it.each([
    ['', 'expected a design name of 1 to 200 characters, received ""'],
    ['   ', 'expected a design name of 1 to 200 characters, received ""'],
    ['x'.repeat(201), 'expected a design name of 1 to 200 characters'],
    ['a\nb', 'expected a design name of 1 to 200 characters without control characters'],
    [42, 'expected a design name of 1 to 200 characters, received 42'],
  ])('authoring › name %j is ERR_INVALID_REQUEST on "name", nothing stored', async (name, message) => {
    const services = setup()
    const error = await rejection(createDesign(services, { account: alice, name: name as string, document: cardDocument() }))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues[0]?.path).toBe('name')
    expect(error.issues[0]?.message).toContain(message)
    expect((await services.designs.listByOwner(alice.id, { offset: 0, limit: 1 })).total).toBe(0)
  })

  it('authoring › an invalid document lists every problem with a "document." path and the component key', async () => {
    const services = setup()
    const document = cardDocument()
    const card = componentsOf(document)[2]!
    ;(card.children as Json[])[0]!.fontSize = 'big'
    componentsOf(document)[1]!.fit = 'stretch'
    delete document.version
    const error = await rejection(createDesign(services, { account: alice, name: 'Card', document }))
    expect(error.code).toBe('ERR_INVALID_DESIGN')
    const paths = error.issues.map((i) => i.path)
    expect(paths).toEqual(expect.arrayContaining(['document.version', 'document.components[1].fit', 'document.components[2].children[0].fontSize']))
    expect(error.issues.find((i) => i.path === 'document.components[2].children[0].fontSize')?.message).toMatch(/^expected a number between 1 and 1000, received "big" \(component "price"\)$/)
    expect(error.message).toContain('document.components[1].fit: expected one of cover, contain, fill, received "stretch" (component "photo")')
    expect((await services.designs.listByOwner(alice.id, { offset: 0, limit: 1 })).total).toBe(0)
  })

  it.each([[[]], ['{"version":2}'], [null]])('authoring › a document that is not an object (%j) is ERR_INVALID_REQUEST on "document"', async (document) => {
    const error = await rejection(createDesign(setup(), { account: alice, name: 'Card', document }))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues[0]).toMatchObject({ path: 'document', message: expect.stringContaining('expected a design document: a JSON object') })
  })

  it('authoring › the free plan stops at 50 designs with ERR_TEMPLATE_LIMIT; other plans do not', async () => {
    const services = setup()
    const document = { version: 2, width: 100, height: 100 }
    for (let i = 0; i < 50; i++) await createDesign(services, { account: alice, name: `D${i}`, document })
    const error = await rejection(createDesign(services, { account: alice, name: 'One more', document }))
    expect(error.code).toBe('ERR_TEMPLATE_LIMIT')
    expect(error.message).toContain('free plan allows 50 designs')
    expect(error.details).toEqual({ plan: 'free', limit: 50, count: 50 })
    expect((await services.designs.listByOwner(alice.id, { offset: 0, limit: 1 })).total).toBe(50)
    // Another account, and a plan without a limit, are unaffected.
    for (let i = 0; i < 51; i++) await createDesign(services, { account: bob, name: `D${i}`, document })
    expect((await services.designs.listByOwner(bob.id, { offset: 0, limit: 1 })).total).toBe(51)
  })
})

describe('updateDesign', () => {
  it('authoring › a document replaces the draft; the published version is untouched', async () => {
    const services = setup()
    const created = await createdFor(services, { publish: true })
    const next = { version: 2, width: 500, height: 500, components: [{ key: 'only', type: 'shape', width: 10, height: 10, fill: 'red' }] }
    const updated = await updateDesign(services, { account: alice, id: created._id, document: next })
    expect(updated.draft).toEqual(next)
    expect(updated.design).toEqual(created.design)
    expect(updated.updatedAt > created.updatedAt).toBe(true)
    expect(updated).toMatchObject({ _id: created._id, renderCode: created.renderCode, createdAt: created.createdAt, name: 'Card' })
    expect(await getDesign(services, { account: alice, id: created._id })).toEqual(updated)
  })

  it('authoring › an invalid replacement is ERR_INVALID_DESIGN with "document." paths, nothing stored', async () => {
    const services = setup()
    const created = await createdFor(services)
    const error = await rejection(updateDesign(services, { account: alice, id: created._id, document: { version: 2, width: 0, height: 100 } }))
    expect(error.code).toBe('ERR_INVALID_DESIGN')
    expect(error.issues).toEqual([{ path: 'document.width', message: 'expected a whole number of pixels between 1 and 4096, received 0' }])
    expect(await getDesign(services, { account: alice, id: created._id })).toEqual(created)
  })

  it('authoring › a name alone renames the design and leaves the documents alone', async () => {
    const services = setup()
    const created = await createdFor(services, { publish: true })
    const updated = await updateDesign(services, { account: alice, id: created._id, name: ' Renamed ' })
    expect(updated.name).toBe('Renamed')
    expect(updated.design).toEqual(created.design)
    expect(updated).not.toHaveProperty('draft')
  })

  it('authoring › both document and patch, or nothing to change, is ERR_INVALID_REQUEST', async () => {
    const services = setup()
    const created = await createdFor(services)
    const both = await rejection(updateDesign(services, { account: alice, id: created._id, document: cardDocument(), patch: { width: 10 } }))
    expect(both.code).toBe('ERR_INVALID_REQUEST')
    expect(both.issues[0]?.path).toBe('patch')
    expect(both.message).toContain('not both')
    const none = await rejection(updateDesign(services, { account: alice, id: created._id }))
    expect(none.code).toBe('ERR_INVALID_REQUEST')
    expect(none.message).toContain('nothing to change')
  })

  describe('patch', () => {
    async function patched(patch: DesignPatch, options: { publish?: boolean; document?: Json } = {}) {
      const services = setup()
      const created = await createdFor(services, options)
      const updated = await updateDesign(services, { account: alice, id: created._id, patch })
      return { services, created, updated, draft: updated.draft as Json }
    }

    it('authoring › top-level fields replace; null removes background, fonts, variations', async () => {
      const { draft } = await patched({ width: 1200, height: 630, background: null, variations: null, fonts: [{ family: 'Brand', src: 'https://fonts.test/b.ttf' }] })
      expect(draft).toMatchObject({ width: 1200, height: 630, fonts: [{ family: 'Brand', src: 'https://fonts.test/b.ttf' }] })
      expect(draft).not.toHaveProperty('background')
      expect(draft).not.toHaveProperty('variations')
      expect(keysOf(draft.components)).toEqual(['title', 'photo', 'card'])
    })

    it('authoring › components deep-merge by key: objects merge, arrays and scalars replace, null removes a field', async () => {
      const { draft } = await patched({
        components: {
          title: { text: 'Summer sale', stroke: { width: 3 }, dynamic: ['text'], maxLines: null },
          price: { text: '€19', color: '#00ff00' },
        },
      })
      const [title, , card] = componentsOf(draft)
      expect(title).toMatchObject({ key: 'title', type: 'text', width: 800, text: 'Summer sale', stroke: { color: '#ff0000', width: 3 }, dynamic: ['text'] })
      expect(title).not.toHaveProperty('maxLines')
      expect((card!.children as Json[])[0]).toMatchObject({ key: 'price', text: '€19', color: '#00ff00', width: 400 })
    })

    it('authoring › a null component removes it, also inside a group', async () => {
      const { draft } = await patched({ components: { photo: null, price: null } })
      expect(keysOf(draft.components)).toEqual(['title', 'card'])
      expect(componentsOf(draft)[1]!.children).toEqual([])
    })

    it('authoring › remove takes keys anywhere; a removed group takes its children', async () => {
      const { draft } = await patched({ remove: ['card', 'photo'] })
      expect(keysOf(draft.components)).toEqual(['title'])
      const nested = await patched({ remove: ['price'] })
      expect(componentsOf(nested.draft)[2]!.children).toEqual([])
    })

    it('authoring › add inserts at the top level or into a group, at an index or on top', async () => {
      const box = (key: string) => ({ key, type: 'shape', width: 10, height: 10 })
      const { draft } = await patched({
        add: [
          { component: box('top') },
          { component: box('bottom'), index: 0 },
          { component: box('first-child'), parent: 'card', index: 0 },
          { component: box('far'), parent: 'card', index: 99 },
          { component: { key: 'inner', type: 'group', width: 50, height: 50 } },
          { component: box('deep'), parent: 'inner' },
        ],
      })
      expect(keysOf(draft.components)).toEqual(['bottom', 'title', 'photo', 'card', 'top', 'inner'])
      expect(keysOf(componentsOf(draft)[3]!.children)).toEqual(['first-child', 'price', 'far'])
      expect(keysOf(componentsOf(draft)[5]!.children)).toEqual(['deep'])
    })

    it('authoring › move changes the parent or the stacking order', async () => {
      const { draft } = await patched({
        move: [
          { key: 'price', parent: null, index: 0 },
          { key: 'photo', parent: 'card' },
          { key: 'title', index: 1 },
        ],
      })
      expect(keysOf(draft.components)).toEqual(['price', 'title', 'card'])
      expect(keysOf(componentsOf(draft)[2]!.children)).toEqual(['photo'])
    })

    it('authoring › a draft patched from a published-only design leaves the published version alone', async () => {
      const { created, updated, services } = await patched({ components: { title: { text: 'Draft only' } } }, { publish: true })
      expect(updated.design).toEqual(created.design)
      expect(componentsOf(updated.draft)[0]!.text).toBe('Draft only')
      expect(componentsOf((await services.designs.get(created._id))!.design)[0]!.text).toBe('Hello')
      // The next patch applies to the draft, not to the published version again.
      const again = await updateDesign(services, { account: alice, id: created._id, patch: { components: { photo: null } } })
      expect(componentsOf(again.draft)[0]!.text).toBe('Draft only')
      expect(keysOf(again.draft!.components)).toEqual(['title', 'card'])
    })

    it('authoring › unknown keys are ERR_INVALID_REQUEST naming the path and the existing keys, all at once', async () => {
      const services = setup()
      const created = await createdFor(services)
      const error = await rejection(
        updateDesign(services, {
          account: alice,
          id: created._id,
          patch: { components: { titel: { text: 'x' } }, remove: ['nope'], add: [{ component: { key: 'n', type: 'shape', width: 1, height: 1 }, parent: 'crad' }], move: [{ key: 'ghost' }] },
        }),
      )
      expect(error.code).toBe('ERR_INVALID_REQUEST')
      expect(error.issues.map((i) => i.path)).toEqual(['patch.components.titel', 'patch.remove[0]', 'patch.add[0].parent', 'patch.move[0].key'])
      expect(error.issues[0]?.message).toBe('no component has the key "titel" (did you mean "title"?); existing component keys: title, photo, card, price')
      expect(error.issues[2]?.message).toBe('no group has the key "crad" (did you mean "card"?); existing group keys: card')
      expect(error.details.available).toEqual(['title', 'photo', 'card', 'price'])
      expect(await getDesign(services, { account: alice, id: created._id })).toEqual(created)
    })

    it('authoring › a parent that is not a group, or a move into itself, is ERR_INVALID_REQUEST', async () => {
      const services = setup()
      const created = await createdFor(services)
      const error = await rejection(
        updateDesign(services, {
          account: alice,
          id: created._id,
          patch: { add: [{ component: { key: 'n', type: 'shape', width: 1, height: 1 }, parent: 'title' }], move: [{ key: 'card', parent: 'card' }] },
        }),
      )
      expect(error.issues).toEqual([
        { path: 'patch.add[0].parent', message: 'expected the key of a group, received "title" (a text component); existing group keys: card' },
        { path: 'patch.move[0].parent', message: 'cannot move "card" into itself' },
      ])
    })

    it('authoring › a malformed patch is ERR_INVALID_REQUEST with "patch." paths', async () => {
      const services = setup()
      const created = await createdFor(services)
      const cases: Array<[unknown, string, string]> = [
        [{ componets: {} }, 'patch', 'unknown field "componets"'],
        [{}, 'patch', 'expected at least one change'],
        [{ remove: 'title' }, 'patch.remove', 'expected an array of component keys'],
        [{ add: [{ component: {}, index: -1 }] }, 'patch.add[0].index', 'expected a position from 0 to 2000'],
        [{ components: { title: 'x' } }, 'patch.components.title', 'expected a partial component'],
        [JSON.parse('{"components":{"title":{"__proto__":{"polluted":true}}}}'), 'patch.components.title.__proto__', 'reserved name'],
        [JSON.parse('{"add":[{"component":{"key":"x","__proto__":{"type":"shape"}}}]}'), 'patch.add[0].component.__proto__', 'reserved name'],
      ]
      for (const [patch, path, message] of cases) {
        const error = await rejection(updateDesign(services, { account: alice, id: created._id, patch: patch as DesignPatch }))
        expect(error.code, JSON.stringify(patch)).toBe('ERR_INVALID_REQUEST')
        expect(error.issues[0]?.path, JSON.stringify(patch)).toBe(path)
        expect(error.issues[0]?.message, JSON.stringify(patch)).toContain(message)
      }
      expect(({} as Json).polluted).toBeUndefined()
    })

    it('authoring › an invalid result is ERR_INVALID_DESIGN with "draft." paths, nothing stored', async () => {
      const services = setup()
      const created = await createdFor(services)
      const error = await rejection(
        updateDesign(services, {
          account: alice,
          id: created._id,
          patch: { components: { price: { fontSize: 'huge' } }, add: [{ component: { key: 'extra', type: 'shape', width: -1, height: 1 } }] },
        }),
      )
      expect(error.code).toBe('ERR_INVALID_DESIGN')
      expect(error.issues).toEqual([
        { path: 'draft.components[2].children[0].fontSize', message: 'expected a number between 1 and 1000, received "huge" (component "price")' },
        { path: 'draft.components[3].width', message: 'expected a width between 0 and 100000 pixels, received -1 (component "extra")' },
      ])
      const duplicate = await rejection(
        updateDesign(services, { account: alice, id: created._id, patch: { add: [{ component: { key: 'title', type: 'shape', width: 1, height: 1 } }] } }),
      )
      expect(duplicate.issues).toEqual([{ path: 'draft.components[3].key', message: 'expected a unique key, received "title" (already used at components[0]) (component "title")' }])
      expect(await getDesign(services, { account: alice, id: created._id })).toEqual(created)
    })
  })

  it('authoring › another account\'s design is ERR_DESIGN_NOT_FOUND and stays as it was', async () => {
    const services = setup()
    const created = await createdFor(services, { account: bob })
    for (const request of [{ name: 'Mine' }, { patch: { width: 5 } }, { document: cardDocument() }]) {
      const error = await rejection(updateDesign(services, { account: alice, id: created._id, ...request }))
      expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
      expect(JSON.stringify(error)).not.toContain('Hello')
    }
    expect(await getDesign(services, { account: bob, id: created._id })).toEqual(created)
    expect((await rejection(updateDesign(services, { account: alice, id: '../etc', name: 'x' }))).code).toBe('ERR_DESIGN_NOT_FOUND')
  })
})

describe('publishDesign', () => {
  it('authoring › the draft becomes the published version; publishing again changes nothing', async () => {
    const services = setup()
    const created = await createdFor(services)
    const published = await publishDesign(services, { account: alice, id: created._id })
    expect(published.design).toEqual(created.draft)
    expect(published).not.toHaveProperty('draft')
    expect(published.updatedAt > created.updatedAt).toBe(true)
    expect(await getDesign(services, { account: alice, id: created._id })).toEqual(published)
    const again = await publishDesign(services, { account: alice, id: created._id })
    expect(again).toEqual(published)
  })

  it('authoring › a patched draft replaces the published version only on publish', async () => {
    const services = setup()
    const created = await createdFor(services, { publish: true })
    await updateDesign(services, { account: alice, id: created._id, patch: { components: { title: { text: 'v2' } } } })
    expect(componentsOf((await getDesign(services, { account: alice, id: created._id })).design)[0]!.text).toBe('Hello')
    const published = await publishDesign(services, { account: alice, id: created._id })
    expect(componentsOf(published.design)[0]!.text).toBe('v2')
  })

  it('authoring › another account\'s design is ERR_DESIGN_NOT_FOUND', async () => {
    const services = setup()
    const created = await createdFor(services, { account: bob })
    expect((await rejection(publishDesign(services, { account: alice, id: created._id }))).code).toBe('ERR_DESIGN_NOT_FOUND')
    expect((await services.designs.get(created._id))!.design).toBeNull()
  })
})

describe('deleteDesign', () => {
  it('authoring › deletes the design; a second delete, or another account, is ERR_DESIGN_NOT_FOUND', async () => {
    const services = setup()
    const mine = await createdFor(services)
    const theirs = await createdFor(services, { account: bob })
    expect(await deleteDesign(services, { account: alice, id: mine._id })).toEqual({ success: true, _id: mine._id })
    expect((await rejection(getDesign(services, { account: alice, id: mine._id }))).code).toBe('ERR_DESIGN_NOT_FOUND')
    expect((await rejection(deleteDesign(services, { account: alice, id: mine._id }))).code).toBe('ERR_DESIGN_NOT_FOUND')
    expect((await rejection(deleteDesign(services, { account: alice, id: theirs._id }))).code).toBe('ERR_DESIGN_NOT_FOUND')
    expect(await services.designs.get(theirs._id)).not.toBeNull()
  })
})

/** A renderer that paints a blank PNG of the document's size and records what it was asked. */
function fakeRenderer(fail?: (document: DesignDocument) => Error | undefined) {
  const calls: Array<{ document: DesignDocument; options: RenderOptions }> = []
  return {
    calls,
    async render(document: unknown, options: RenderOptions = {}): Promise<RenderResult> {
      const doc = document as DesignDocument
      calls.push({ document: doc, options })
      const error = fail?.(doc)
      if (error) throw error
      const variation = doc.variations.find((v) => v.id === options.variation)
      const { width, height } = variation ?? doc
      const bytes = await sharp({ create: { width, height, channels: 4, background: '#ffffff' } }).png().toBuffer()
      return { bytes, contentType: 'image/png', format: 'png', width, height, variation: variation?.id ?? 'master', warnings: [] }
    },
  }
}

const wideDocument = (text = 'Wide'): Json => ({
  version: 2,
  width: 2160,
  height: 1080,
  background: '#123456',
  components: [
    { key: 'title', type: 'text', x: 100, y: 100, width: 1500, height: 200, text, fontSize: 96, color: '#ffffff' },
    { key: 'photo', type: 'image', x: 1600, y: 100, width: 400, height: 400, src: 'https://images.test/p.png' },
  ],
})

describe('previewDesign', () => {
  const real = createRenderer()
  afterAll(() => real.close())

  it('authoring › renders a 2160x1080 design as a PNG whose long side is 1024 (real renderer)', async () => {
    const services = setup()
    const document = wideDocument()
    delete componentsOf(document)[1]!.src
    const created = await createDesign(services, { account: alice, name: 'Wide', document })
    const preview = await previewDesign({ designs: services.designs, renderer: real }, { account: alice, id: created._id })
    expect(preview).toMatchObject({ contentType: 'image/png', width: 1024, height: 512, source: 'draft', variation: 'master', warnings: [] })
    expect(preview.scale).toBeCloseTo(1024 / 2160)
    const meta = await sharp(preview.bytes).metadata()
    expect(meta).toMatchObject({ format: 'png', width: 1024, height: 512 })
    // The background colour survives the downscale.
    const { data } = await sharp(preview.bytes).extract({ left: 5, top: 500, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true })
    expect([...data.subarray(0, 3)]).toEqual([0x12, 0x34, 0x56])
  })

  it('authoring › overrides apply, ignored ones come back as warnings, and a broken image is left out (real renderer)', async () => {
    const services = setup()
    const document = wideDocument()
    componentsOf(document)[1]!.src = 'data:image/png;base64,AAAA'
    const created = await createDesign(services, { account: alice, name: 'Wide', document, publish: true })
    const preview = await previewDesign(
      { designs: services.designs, renderer: real },
      { account: alice, id: created._id, maxSide: 512, overrides: { 'title.text': 'Overridden', 'nope.text': 'x', 'title.fontSize': 10 } },
    )
    expect(preview).toMatchObject({ width: 512, height: 256, source: 'published' })
    const codes = preview.warnings.map((w) => [w.code, w.key])
    expect(codes).toEqual(expect.arrayContaining([['override_ignored', 'nope.text'], ['override_ignored', 'title.fontSize'], ['image_failed', 'photo']]))
    expect(preview.summary).toMatch(/^Preview of the published version, variation master, 512x256 px with 1 of 3 overrides applied \(ignored: nope\.text, title\.fontSize\)\. Valid keys: (?=.*title\.text)/)
    const failed = preview.warnings.find((w) => w.code === 'image_failed')!
    expect(failed).toMatchObject({ errorCode: 'ERR_IMAGE_INVALID' })
    expect(failed.message).toContain('a real render fails with ERR_IMAGE_INVALID until "photo.src"')
  })

  it('authoring › a preview whose overrides were all ignored says so in its first line', async () => {
    const services = setup()
    const created = await createDesign(services, { account: alice, name: 'Wide', document: wideDocument('Stored title') })
    const renderer = fakeRenderer()
    const none = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, overrides: { 'titel.text': 'typo', 'title.txt': 'typo' } })
    expect(none.summary).toMatch(/^None of the 2 overrides was applied \(titel\.text, title\.txt: see the warnings\): this is the draft version, variation master, \d+x\d+ px, as stored\. Valid keys: .*title\.text/)
    const one = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, overrides: { 'titel.text': 'typo' } })
    expect(one.summary).toMatch(/^The 1 override was not applied \(titel\.text/)
    const all = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, overrides: { 'title.text': 'Hi' } })
    expect(all.summary).toMatch(/^Preview of the draft version, variation master, \d+x\d+ px with its override applied\.$/)
    const plain = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id })
    expect(plain.summary).toMatch(/^Preview of the draft version, variation master, \d+x\d+ px\.$/)
  })

  it('authoring › renders the draft by default, the published version on request', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const created = await createDesign(services, { account: alice, name: 'Wide', document: wideDocument('Published'), publish: true })
    await updateDesign(services, { account: alice, id: created._id, patch: { components: { title: { text: 'Draft' } } } })
    const draft = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id })
    const published = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, source: 'published' })
    expect([draft.source, published.source]).toEqual(['draft', 'published'])
    expect(renderer.calls.map((c) => (c.document.components[0] as { text: string }).text)).toEqual(['Draft', 'Published'])
    expect(renderer.calls[0]!.options).toEqual({ format: 'png' })
    expect([draft.width, draft.height]).toEqual([1024, 512])
  })

  it('authoring › a source the design does not have is ERR_INVALID_REQUEST on "source"', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const draftOnly = await createDesign(services, { account: alice, name: 'A', document: wideDocument() })
    const publishedOnly = await createDesign(services, { account: alice, name: 'B', document: wideDocument(), publish: true })
    const notPublished = await rejection(previewDesign({ designs: services.designs, renderer }, { account: alice, id: draftOnly._id, source: 'published' }))
    expect(notPublished.issues).toEqual([{ path: 'source', message: `design "${draftOnly._id}" is not published yet; use "draft" or omit "source"` }])
    const noDraft = await rejection(previewDesign({ designs: services.designs, renderer }, { account: alice, id: publishedOnly._id, source: 'draft' }))
    expect(noDraft.code).toBe('ERR_INVALID_REQUEST')
    expect(noDraft.issues[0]?.path).toBe('source')
    expect(renderer.calls).toHaveLength(0)
  })

  it('authoring › overrides reach the renderer applied; invalid values are ERR_INVALID_OVERRIDE on "overrides.<key>"', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const created = await createDesign(services, { account: alice, name: 'Wide', document: wideDocument() })
    const preview = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, overrides: { title: { text: 'Hi', y: 5 } } })
    expect(renderer.calls[0]!.document.components[0]).toMatchObject({ text: 'Hi', y: 100 })
    expect(preview.warnings).toEqual([{ code: 'override_ignored', key: 'title.y', reason: 'not_dynamic', message: '"y" is not a dynamic field of "title"; its dynamic fields are text, color, visible' }])
    const error = await rejection(previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, overrides: { 'title.color': 'not-a-colour' } }))
    expect(error.code).toBe('ERR_INVALID_OVERRIDE')
    expect(error.issues[0]?.path).toBe('overrides.title.color')
  })

  it('authoring › a variation is rendered and scaled; an unknown one is ERR_UNKNOWN_VARIATION', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const created = await createDesign(services, { account: alice, name: 'Card', document: cardDocument() })
    const story = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, variation: 'story' })
    expect(story).toMatchObject({ variation: 'story', width: 576, height: 1024 })
    const small = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, maxSide: 2048 })
    expect(small).toMatchObject({ width: 1080, height: 1080, scale: 1 })
    const failing = fakeRenderer(() => new LithoError('ERR_UNKNOWN_VARIATION', 'unknown variation "x"; available: master, story, wide', { details: { available: ['master', 'story', 'wide'] } }))
    expect((await rejection(previewDesign({ designs: services.designs, renderer: failing }, { account: alice, id: created._id, variation: 'x' }))).code).toBe('ERR_UNKNOWN_VARIATION')
  })

  it('authoring › each failing image is left out with a warning; other errors propagate', async () => {
    const services = setup()
    const document = wideDocument()
    componentsOf(document).push({ key: 'logo', type: 'image', width: 10, height: 10, src: 'https://images.test/logo.png' })
    const created = await createDesign(services, { account: alice, name: 'Wide', document })
    const renderer = fakeRenderer((doc) => {
      const broken = doc.components.find((c) => c.type === 'image' && c.src)
      return broken ? new LithoError('ERR_IMAGE_FETCH', `${broken.key}: image fetch failed: 404`, { details: { component: broken.key } }) : undefined
    })
    const preview = await previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id })
    expect(preview.warnings.map((w) => [w.code, w.key])).toEqual([['image_failed', 'photo'], ['image_failed', 'logo']])
    expect(preview.warnings[0]!.message).toContain('photo: the image could not be loaded (image fetch failed: 404)')
    expect(renderer.calls).toHaveLength(3)
    const fonts = fakeRenderer(() => new LithoError('ERR_FONT_FETCH', 'font failed'))
    expect((await rejection(previewDesign({ designs: services.designs, renderer: fonts }, { account: alice, id: created._id }))).code).toBe('ERR_FONT_FETCH')
  })

  it('authoring › another account\'s design is ERR_DESIGN_NOT_FOUND and nothing is rendered', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const created = await createDesign(services, { account: bob, name: 'Theirs', document: wideDocument() })
    const error = await rejection(previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id }))
    expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
    expect(renderer.calls).toHaveLength(0)
  })

  it('authoring › bad preview inputs are ERR_INVALID_REQUEST naming the field', async () => {
    const services = setup()
    const renderer = fakeRenderer()
    const created = await createDesign(services, { account: alice, name: 'Wide', document: wideDocument() })
    const error = await rejection(previewDesign({ designs: services.designs, renderer }, { account: alice, id: created._id, maxSide: 5, source: 'latest' as 'draft' }))
    expect(error.issues).toEqual([
      { path: 'source', message: 'expected "draft" or "published", received "latest"' },
      { path: 'maxSide', message: 'expected a whole number from 16 to 4096, received 5' },
    ])
  })
})

describe('input schemas', () => {
  it('authoring › every tool input is a plain object schema with described fields', () => {
    const schemas = { CreateDesignInputSchema, UpdateDesignInputSchema, PublishDesignInputSchema, DeleteDesignInputSchema, PreviewDesignInputSchema }
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema, name).toBeInstanceOf(z.ZodObject)
      const json = z.toJSONSchema(schema, { io: 'input' }) as { type: string; properties: Record<string, { description?: string }> }
      expect(json.type, name).toBe('object')
      for (const [field, property] of Object.entries(json.properties)) expect(property.description, `${name}.${field}`).toBeTruthy()
    }
    const create = z.toJSONSchema(CreateDesignInputSchema, { io: 'input' }) as { required: string[]; properties: Record<string, { type?: string; description: string; default?: unknown }> }
    expect(create.required).toEqual(['name', 'document'])
    expect(create.properties.document).toMatchObject({ type: 'object' })
    expect(create.properties.document?.description).toContain('get_design_guide')
    expect(create.properties.publish?.default).toBe(false)
    const preview = z.toJSONSchema(PreviewDesignInputSchema, { io: 'input' }) as { properties: Record<string, { description: string; default?: unknown }> }
    expect(preview.properties.maxSide?.default).toBe(1024)
    expect(preview.properties.overrides?.description).toContain('data.flatten')
  })

  it('authoring › the patch schema documents each operation', () => {
    const json = z.toJSONSchema(DesignPatchSchema, { io: 'input' }) as { description: string; additionalProperties: boolean; properties: Record<string, { description?: string }> }
    expect(json.additionalProperties).toBe(false)
    expect(Object.keys(json.properties)).toEqual(['width', 'height', 'background', 'fonts', 'variations', 'components', 'add', 'remove', 'move'])
    for (const [field, property] of Object.entries(json.properties)) expect(property.description, field).toBeTruthy()
    expect(json.properties.components?.description).toContain('deep-merged')
    expect(json.description).toContain('(5) `move`')
  })
})
