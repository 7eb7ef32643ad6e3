import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { describe, expect, it } from 'vitest'
import type { DesignRecord, DesignStore } from '../../src/contracts/index.js'
import {
  ListDesignsParamsSchema,
  PaginatedDesignsSchema,
  RenderConfigSchema,
  getDesign,
  getRenderConfig,
  listDesigns,
  parseListDesignsParams,
} from '../../src/index.js'
import { documentFixture, rejection } from './helpers.js'

const alice = { id: 'u_alice' }
const bob = { id: 'u_bob' }
const RENDER_URL = 'https://render.example.test/'

function record(n: number, overrides: Partial<DesignRecord> = {}): DesignRecord {
  const stamp = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString()
  return {
    id: `d_${String(n).padStart(3, '0')}`,
    ownerId: alice.id,
    name: `Design ${n}`,
    renderCode: `rc_${String(n).padStart(3, '0')}_abcdefghijklmn`,
    design: documentFixture(),
    draft: null,
    createdAt: stamp,
    updatedAt: stamp,
    ...overrides,
  }
}

async function storeWith(records: DesignRecord[]): Promise<DesignStore> {
  const designs = memoryDesignStore()
  for (const r of records) await designs.create(r)
  return designs
}

describe('parseListDesignsParams', () => {
  it('designs › defaults to page 1 of 10', () => {
    expect(parseListDesignsParams(new URLSearchParams())).toEqual({ page: 1, limit: 10 })
    expect(parseListDesignsParams(new URLSearchParams('$page=3&$limit=100&other=x'))).toEqual({ page: 3, limit: 100 })
    expect(parseListDesignsParams(new URLSearchParams('$limit=1'))).toEqual({ page: 1, limit: 1 })
  })

  it.each([
    ['$page=0', '$page', 'expected a whole number ≥ 1, received 0'],
    ['$page=-1', '$page', 'expected a whole number ≥ 1, received -1'],
    ['$page=1.5', '$page', 'expected a whole number ≥ 1, received 1.5'],
    ['$page=x', '$page', 'expected a whole number ≥ 1, received "x"'],
    ['$page=', '$page', 'expected a whole number ≥ 1, received ""'],
    ['$limit=0', '$limit', 'expected a whole number from 1 to 100, received 0'],
    ['$limit=101', '$limit', 'expected a whole number from 1 to 100, received 101'],
    ['$limit=1.5', '$limit', 'expected a whole number from 1 to 100, received 1.5'],
    ['$limit=x', '$limit', 'expected a whole number from 1 to 100, received "x"'],
    ['$limit=5&$limit=6', '$limit', 'expected one value, received 2'],
  ])('designs › %s is ERR_INVALID_REQUEST naming the parameter', async (query, path, message) => {
    const error = await rejection(() => parseListDesignsParams(new URLSearchParams(query)))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues).toContainEqual({ path, message })
    expect(error.message).toContain(`${path}: `)
  })

  it('designs › reports both bad parameters at once', async () => {
    const error = await rejection(() => parseListDesignsParams(new URLSearchParams('$page=0&$limit=101')))
    expect(error.issues.map((i) => i.path)).toEqual(['$page', '$limit'])
  })

  it('designs › the schema documents both parameters with their defaults', () => {
    const json = (ListDesignsParamsSchema.toJSONSchema({ io: 'input' }) as { properties: Record<string, { default?: unknown; description?: string }> }).properties
    expect(json.$page).toMatchObject({ default: 1, minimum: 1 })
    expect(json.$limit).toMatchObject({ default: 10, minimum: 1, maximum: 100 })
    expect(json.$page?.description).toBeTruthy()
  })
})

describe('listDesigns', () => {
  it('designs › pages most recently updated first, with the page math', async () => {
    const designs = await storeWith([...Array.from({ length: 25 }, (_, i) => record(i + 1)), record(99, { ownerId: bob.id })])
    const first = await listDesigns({ designs }, { account: alice, page: 1, limit: 10 })
    expect(PaginatedDesignsSchema.parse(first)).toEqual(first)
    expect(first).toMatchObject({ page: 1, totalPages: 3, hasNextPage: true, totalDocs: 25, limit: 10 })
    expect(first.docs.map((d) => d._id)).toEqual(Array.from({ length: 10 }, (_, i) => `d_${String(25 - i).padStart(3, '0')}`))
    expect(first.docs[0]).toEqual({ _id: 'd_025', name: 'Design 25', updatedAt: record(25).updatedAt })

    const last = await listDesigns({ designs }, { account: alice, page: 3, limit: 10 })
    expect(last).toMatchObject({ page: 3, totalPages: 3, hasNextPage: false, totalDocs: 25 })
    expect(last.docs.map((d) => d._id)).toEqual(['d_005', 'd_004', 'd_003', 'd_002', 'd_001'])

    const past = await listDesigns({ designs }, { account: alice, page: 4, limit: 10 })
    expect(past).toMatchObject({ docs: [], page: 4, totalPages: 3, hasNextPage: false, totalDocs: 25 })

    const exact = await listDesigns({ designs }, { account: alice, page: 1, limit: 25 })
    expect(exact).toMatchObject({ totalPages: 1, hasNextPage: false })
    expect(exact.docs).toHaveLength(25)
  })

  it('designs › an update moves a design to the front', async () => {
    const designs = await storeWith([record(1), record(2), record(3)])
    await designs.update({ ...record(1), name: 'Renamed', updatedAt: '2026-06-01T00:00:00.000Z' })
    const page = await listDesigns({ designs }, { account: alice, page: 1, limit: 2 })
    expect(page.docs).toEqual([
      { _id: 'd_001', name: 'Renamed', updatedAt: '2026-06-01T00:00:00.000Z' },
      { _id: 'd_003', name: 'Design 3', updatedAt: record(3).updatedAt },
    ])
    expect(page).toMatchObject({ totalPages: 2, hasNextPage: true })
  })

  it('designs › no designs is page 1 of 1, empty', async () => {
    const designs = await storeWith([record(1, { ownerId: bob.id })])
    expect(await listDesigns({ designs }, { account: alice, page: 1, limit: 10 })).toEqual({ docs: [], page: 1, totalPages: 1, hasNextPage: false, totalDocs: 0, limit: 10 })
  })

  it('designs › passes offset (page-1)*limit to the store', async () => {
    const calls: unknown[] = []
    const designs = { listByOwner: async (owner: string, page: unknown) => (calls.push([owner, page]), { items: [], total: 0 }), get: async () => null }
    await listDesigns({ designs }, { account: alice, page: 7, limit: 20 })
    expect(calls).toEqual([['u_alice', { offset: 120, limit: 20 }]])
  })

  it('designs › rejects out-of-range page and limit from direct callers', async () => {
    const designs = memoryDesignStore()
    expect((await rejection(listDesigns({ designs }, { account: alice, page: 0, limit: 10 }))).issues[0]?.path).toBe('$page')
    expect((await rejection(listDesigns({ designs }, { account: alice, page: 1, limit: 101 }))).issues[0]?.path).toBe('$limit')
  })
})

describe('getDesign', () => {
  it('designs › returns the design record without its owner, draft only when present', async () => {
    const designs = await storeWith([record(1), record(2, { draft: { ...documentFixture(), width: 500 } })])
    const one = await getDesign({ designs }, { account: alice, id: 'd_001' })
    expect(one).toEqual({ _id: 'd_001', name: 'Design 1', renderCode: record(1).renderCode, createdAt: record(1).createdAt, updatedAt: record(1).updatedAt, design: documentFixture() })
    expect('draft' in one).toBe(false)
    expect('ownerId' in one).toBe(false)
    const two = await getDesign({ designs }, { account: alice, id: 'd_002' })
    expect(two.draft).toMatchObject({ width: 500 })
  })

  it('designs › a draft-only design has design: null and its draft', async () => {
    const designs = await storeWith([record(1, { design: null, draft: documentFixture() })])
    expect(await getDesign({ designs }, { account: alice, id: 'd_001' })).toMatchObject({ design: null, draft: documentFixture() })
  })

  it.each(['d_404', 'd_001/../x', '', 'x'.repeat(65), '../etc'])('designs › id %j of nobody is ERR_DESIGN_NOT_FOUND', async (id) => {
    const designs = await storeWith([record(1)])
    const error = await rejection(getDesign({ designs }, { account: alice, id }))
    expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
  })

  it("designs › another owner's design is ERR_DESIGN_NOT_FOUND, revealing nothing", async () => {
    const designs = await storeWith([record(1, { ownerId: bob.id, name: 'Secret plan' })])
    const error = await rejection(getDesign({ designs }, { account: alice, id: 'd_001' }))
    const unknown = await rejection(getDesign({ designs }, { account: alice, id: 'd_002' }))
    expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
    expect(JSON.stringify(error.toJSON())).not.toContain('Secret')
    expect(JSON.stringify(error.toJSON())).not.toContain('rc_')
    // Indistinguishable from an unknown id but for the id itself.
    expect(error.message.replace('d_001', 'ID')).toBe(unknown.message.replace('d_002', 'ID'))
  })
})

describe('a render code where an _id belongs', () => {
  it("designs › the render code of the caller's own design is still ERR_DESIGN_NOT_FOUND, naming the _id to use", async () => {
    const designs = await storeWith([record(1, { name: 'Speaker card' })])
    for (const call of [() => getDesign({ designs }, { account: alice, id: 'rc_001_abcdefghijklmn' }), () => getRenderConfig({ designs }, { account: alice, id: 'rc_001_abcdefghijklmn', renderUrl: RENDER_URL })]) {
      const error = await rejection(call())
      expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
      expect(error.message).toContain('render code of your design "Speaker card"')
      expect(error.message).toContain('_id is "d_001"')
      expect(error.details).toMatchObject({ id: 'rc_001_abcdefghijklmn', designId: 'd_001' })
    }
  })

  it("designs › another account's render code reveals nothing: the same message as an unknown id", async () => {
    const designs = await storeWith([record(1, { ownerId: bob.id, name: 'Secret plan' })])
    const theirs = await rejection(getDesign({ designs }, { account: alice, id: 'rc_001_abcdefghijklmn' }))
    const unknown = await rejection(getDesign({ designs }, { account: alice, id: 'rc_999_abcdefghijklmn' }))
    expect(JSON.stringify(theirs.toJSON())).not.toContain('Secret')
    expect(JSON.stringify(theirs.toJSON())).not.toContain('d_001')
    expect(theirs.message.replace('001', 'N')).toBe(unknown.message.replace('999', 'N'))
  })
})

describe('getRenderConfig', () => {
  it('designs › builds render URL, dynamic data and sizes with master first', async () => {
    const designs = await storeWith([record(1)])
    const config = await getRenderConfig({ designs }, { account: alice, id: 'd_001', renderUrl: RENDER_URL })
    expect(RenderConfigSchema.parse(config)).toEqual(config)
    expect(config.render).toBe(`https://render.example.test/v1/${record(1).renderCode}`)
    expect(config.variations).toEqual([
      { id: 'master', name: 'Master', dimensions: { width: 1080, height: 1080 } },
      { id: 'story', name: 'Story', dimensions: { width: 1080, height: 1920 } },
      { id: 'wide', name: 'wide', dimensions: { width: 1920, height: 1080 } },
    ])
    expect(Object.keys(config.data.flatten)).toEqual(['title.text', 'title.color', 'title.visible', 'photo.src', 'photo.visible', 'card.visible', 'price.text', 'price.color', 'price.visible'])
    expect(config.data.flatten['title.text']).toBe('Hello')
    expect(config.data.flatten['photo.src']).toBe('https://example.test/a.png')
    expect(config.data.pure.title).toMatchObject({ text: 'Hello', visible: true })
    expect(config.data.pure.price).toMatchObject({ text: '12' })
  })

  it('designs › describes the published document, not the draft', async () => {
    const designs = await storeWith([record(1, { draft: { ...documentFixture(), width: 500, variations: [] } })])
    const config = await getRenderConfig({ designs }, { account: alice, id: 'd_001', renderUrl: 'https://r.test' })
    expect(config.variations[0]?.dimensions.width).toBe(1080)
    expect(config.render).toBe(`https://r.test/v1/${record(1).renderCode}`)
  })

  it('designs › a draft-only design is described from its draft', async () => {
    const designs = await storeWith([record(1, { design: null, draft: { ...documentFixture(), width: 500, variations: [] } })])
    const config = await getRenderConfig({ designs }, { account: alice, id: 'd_001', renderUrl: 'https://r.test' })
    expect(config.variations).toEqual([{ id: 'master', name: 'Master', dimensions: { width: 500, height: 1080 } }])
  })

  it('designs › a design with neither version, another owner, or a bad id is ERR_DESIGN_NOT_FOUND', async () => {
    const designs = await storeWith([record(1, { design: null, draft: null }), record(2, { ownerId: bob.id })])
    for (const id of ['d_001', 'd_002', 'd_003', 'no/such']) {
      expect((await rejection(getRenderConfig({ designs }, { account: alice, id, renderUrl: RENDER_URL }))).code).toBe('ERR_DESIGN_NOT_FOUND')
    }
  })
})
