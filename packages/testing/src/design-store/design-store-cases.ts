/**
 * The cases of the design-store conformance suite, as data: a stable title, whether a case
 * needs a persistent store, and a function that throws when the store breaks the contract.
 * `runDesignStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly.
 *
 * @module design-store/design-store-cases
 */
import type { DesignRecord, DesignStore, DesignSummary } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually, expectInvalid, INVALID_IDS, type InvalidCode } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** What a case gets: the suite's store, the factory, and ids unique to this run. */
export interface DesignStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: DesignStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<DesignStore>
  /** An owner id unique to this run and `label`. */
  owner: (label: string) => string
  /**
   * A valid record with a fresh id and render code, owned by `owner(label)` unless `fields`
   * says otherwise; `updatedAt` is `createdAt` (2026-01-01T00:00:00.000Z) unless given.
   */
  record: (label: string, fields?: Partial<DesignRecord>) => DesignRecord
}

/** One case of the suite. */
export interface DesignStoreCase {
  /** Stable title, `design store › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless the caller declares the store persistent (`persistent: true`). */
  needsPersistent?: boolean
  run: (context: DesignStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link DesignStoreCaseContext}. */
export function createDesignStoreCaseContext(store: DesignStore, create: () => DesignStore | Promise<DesignStore>, prefix = createRunPrefix()): DesignStoreCaseContext {
  let sequence = 0
  return {
    store,
    create: async () => create(),
    owner: (label) => `${prefix}-${label}`,
    record: (label, fields = {}) => {
      const n = ++sequence
      return {
        id: `${prefix}-d${n}`,
        ownerId: `${prefix}-${label}`,
        name: `Design ${n}`,
        // 16 to 64 characters: the prefix alone is about 14.
        renderCode: `${prefix}-code-${n}-x`,
        design: { version: 1, size: { width: 1200, height: 630 }, components: [{ type: 'text', text: `Design ${n}` }] },
        draft: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        ...fields,
      }
    },
  }
}

/** Every case, in the order they run. */
export const designStoreCases: readonly DesignStoreCase[] = [
  // --- create and read ---
  {
    title: 'design store › create then get returns every field, design and draft as equal JSON',
    async run({ store, record }) {
      const created = record('round-trip', {
        name: 'Été — 夏 🌞 "quoted" \\ back\nslash',
        design: {
          version: 1,
          nested: { deep: { array: [1, 2.5, -3, 0, true, false, null, 'ü'], empty: {}, emptyArray: [] } },
          unicode: '日本語 🎨 \u2028\u2029 \u0000',
          number: 1e21,
        },
        draft: { components: [{ type: 'image', src: 'https://example.com/a.png', opacity: 0.5 }], note: 'ñ' },
        createdAt: '2026-02-03T04:05:06.789Z',
        updatedAt: '2026-02-03T04:05:07.000Z',
      })
      await store.create(created)
      const found = await store.get(created.id)
      expect(found).toEqual(JSON.parse(JSON.stringify(created)))
      expect(JSON.stringify(found?.design)).toBe(JSON.stringify(created.design))
      expect(JSON.stringify(found?.draft)).toBe(JSON.stringify(created.draft))
    },
  },
  {
    title: 'design store › design and draft may be null',
    async run({ store, record }) {
      const created = record('nulls', { design: null, draft: null })
      await store.create(created)
      expect(await store.get(created.id)).toEqual(created)
    },
  },
  {
    title: 'design store › get of an unknown id returns null',
    async run({ store, record }) {
      expect(await store.get(record('unknown').id)).toBeNull()
    },
  },
  {
    title: 'design store › getByRenderCode finds the design; an unknown code returns null',
    async run({ store, record }) {
      const created = record('by-code')
      await store.create(created)
      expect(await store.getByRenderCode(created.renderCode)).toEqual(created)
      expect(await store.getByRenderCode(record('by-code-unknown').renderCode)).toBeNull()
    },
  },
  {
    title: 'design store › returned records are copies',
    async run({ store, record }) {
      const created = record('copies', { design: { nested: { value: 1 } }, draft: { list: [1] } })
      const original = JSON.parse(JSON.stringify(created)) as DesignRecord
      await store.create(created)
      // Changing the record given to create changes nothing stored.
      ;(created.design as { nested: { value: number } }).nested.value = 2
      created.name = 'changed'
      const first = (await store.get(original.id)) as DesignRecord
      expect(first).toEqual(original)
      // Changing a returned record changes nothing stored.
      ;(first.design as { nested: { value: number } }).nested.value = 3
      ;(first.draft as { list: number[] }).list.push(2)
      first.name = 'changed'
      expect(await store.get(original.id)).toEqual(original)
      const byCode = (await store.getByRenderCode(original.renderCode)) as DesignRecord
      ;(byCode.design as { nested: { value: number } }).nested.value = 4
      expect(await store.getByRenderCode(original.renderCode)).toEqual(original)
    },
  },

  // --- conflicts ---
  {
    title: 'design store › create rejects a reused id with ERR_STORE_CONFLICT and keeps the first',
    async run({ store, record }) {
      const first = record('conflict-id')
      await store.create(first)
      const second = record('conflict-id-other', { id: first.id, name: 'second' })
      await expectConflict(store.create(second))
      expect(await store.get(first.id)).toEqual(first)
      expect(await store.getByRenderCode(second.renderCode)).toBeNull()
    },
  },
  {
    title: 'design store › create rejects a reused render code with ERR_STORE_CONFLICT and keeps the first',
    async run({ store, record }) {
      const first = record('conflict-code')
      await store.create(first)
      const second = record('conflict-code', { renderCode: first.renderCode })
      await expectConflict(store.create(second))
      expect(await store.get(second.id)).toBeNull()
      expect(await store.getByRenderCode(first.renderCode)).toEqual(first)
    },
  },
  {
    title: 'design store › concurrent creates of one id or one render code: exactly one succeeds',
    async run({ store, record }) {
      const byId = record('concurrent-conflict')
      const sameId = Array.from({ length: 5 }, (_, index) => record('concurrent-conflict', { id: byId.id, name: `same id ${index}` }))
      const idResults = await Promise.allSettled(sameId.map((r) => store.create(r)))
      expect(idResults.filter((r) => r.status === 'fulfilled').length, 'creates of one id that succeeded').toBe(1)
      for (const result of idResults) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'ERR_STORE_CONFLICT' })

      const byCode = record('concurrent-conflict')
      const sameCode = Array.from({ length: 5 }, () => record('concurrent-conflict', { renderCode: byCode.renderCode }))
      const codeResults = await Promise.allSettled(sameCode.map((r) => store.create(r)))
      expect(codeResults.filter((r) => r.status === 'fulfilled').length, 'creates of one render code that succeeded').toBe(1)
      for (const result of codeResults) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'ERR_STORE_CONFLICT' })
    },
  },

  // --- update ---
  {
    title: 'design store › update replaces an existing record and returns true',
    async run({ store, record }) {
      const created = record('update')
      await store.create(created)
      const updated = { ...created, name: 'Renamed ✓', design: { version: 2 }, draft: { wip: [1, 2] }, updatedAt: '2026-03-01T00:00:00.000Z' }
      expect(await store.update(updated)).toBe(true)
      expect(await store.get(created.id)).toEqual(updated)
      expect(await store.getByRenderCode(created.renderCode)).toEqual(updated)
    },
  },
  {
    title: 'design store › update of an unknown id returns false and creates nothing',
    async run({ store, record }) {
      const missing = record('update-unknown')
      expect(await store.update(missing)).toBe(false)
      expect(await store.get(missing.id)).toBeNull()
      expect(await store.getByRenderCode(missing.renderCode)).toBeNull()
    },
  },
  {
    title: 'design store › update changing ownerId, renderCode or createdAt rejects with a TypeError and changes nothing',
    async run({ store, record, owner }) {
      const created = record('update-immutable')
      await store.create(created)
      const changes: Array<[string, Partial<DesignRecord>]> = [
        ['ownerId', { ownerId: owner('update-immutable-other') }],
        ['renderCode', { renderCode: record('update-immutable').renderCode }],
        ['createdAt', { createdAt: '2026-01-02T00:00:00.000Z' }],
      ]
      for (const [field, change] of changes) {
        const error = await store.update({ ...created, ...change, name: 'changed' }).then(() => undefined, (reason: unknown) => reason)
        expect(error, `update changing ${field}`).toBeInstanceOf(TypeError)
        expect((error as { code?: unknown }).code, `update changing ${field}: code`).toBe('ERR_INVALID_ARG_VALUE')
      }
      expect(await store.get(created.id)).toEqual(created)
    },
  },
  {
    title: 'design store › the last write wins, and concurrent updates leave one whole version',
    async run({ store, record }) {
      const created = record('last-write')
      await store.create(created)
      await store.update({ ...created, name: 'first', updatedAt: '2026-01-02T00:00:00.000Z' })
      const last = { ...created, name: 'second', updatedAt: '2026-01-03T00:00:00.000Z' }
      await store.update(last)
      expect(await store.get(created.id)).toEqual(last)

      const versions = Array.from({ length: 20 }, (_, index) => ({
        ...created,
        name: `v${index}`,
        design: { version: index, payload: 'x'.repeat(1000 + index) },
        updatedAt: `2026-02-01T00:00:${String(index).padStart(2, '0')}.000Z`,
      }))
      expect(await Promise.all(versions.map((v) => store.update(v)))).toEqual(versions.map(() => true))
      const stored = await store.get(created.id)
      expect(versions, 'the stored record is one of the versions written, whole').toContainEqual(stored)
    },
  },

  // --- delete ---
  {
    title: 'design store › delete removes the design from get, getByRenderCode and lists',
    async run({ store, record }) {
      const kept = record('delete')
      const deleted = record('delete')
      await store.create(kept)
      await store.create(deleted)
      expect(await store.delete(deleted.id)).toBe(true)
      expect(await store.get(deleted.id)).toBeNull()
      expect(await store.getByRenderCode(deleted.renderCode)).toBeNull()
      await eventually(async () => expect(await store.listByOwner(kept.ownerId, { offset: 0, limit: 10 })).toEqual({ items: [summary(kept)], total: 1 }))
      expect(await store.delete(deleted.id), 'a second delete').toBe(false)
      expect(await store.update(deleted), 'an update after delete').toBe(false)
    },
  },
  {
    title: 'design store › delete of an unknown id returns false',
    async run({ store, record }) {
      expect(await store.delete(record('delete-unknown').id)).toBe(false)
    },
  },
  {
    title: 'design store › a deleted render code can be used again',
    async run({ store, record }) {
      const first = record('code-reuse')
      await store.create(first)
      await store.delete(first.id)
      const second = record('code-reuse', { renderCode: first.renderCode })
      await store.create(second)
      expect(await store.getByRenderCode(first.renderCode)).toEqual(second)
    },
  },

  // --- lists ---
  {
    title: 'design store › listByOwner returns the newest first, ties by id',
    async run({ store, record, owner }) {
      const at = (time: string) => `2026-04-0${time}Z`
      const records = [
        record('list-order', { updatedAt: at('1T00:00:00.000') }),
        record('list-order', { updatedAt: at('3T00:00:00.000') }),
        record('list-order', { updatedAt: at('2T00:00:00.000') }),
        record('list-order', { updatedAt: at('2T00:00:00.000') }),
        // The same instant written another way sorts as the same time.
        record('list-order', { updatedAt: '2026-04-02T02:00:00+02:00' }),
      ]
      for (const r of [...records].reverse()) await store.create(r)
      const [oldest, newest, tieA, tieB, tieC] = records as [DesignRecord, DesignRecord, DesignRecord, DesignRecord, DesignRecord]
      const ties = [tieA, tieB, tieC].sort((a, b) => (a.id < b.id ? -1 : 1))
      const expected = [newest, ...ties, oldest].map(summary)
      await eventually(async () => expect(await store.listByOwner(owner('list-order'), { offset: 0, limit: 100 })).toEqual({ items: expected, total: 5 }))

      // An update moves a design to the front.
      await store.update({ ...oldest, name: 'touched', updatedAt: at('5T00:00:00.000') })
      await eventually(async () => {
        const { items } = await store.listByOwner(owner('list-order'), { offset: 0, limit: 1 })
        expect(items).toEqual([{ id: oldest.id, name: 'touched', updatedAt: at('5T00:00:00.000') }])
      })
    },
  },
  {
    title: 'design store › listByOwner pages with offset and limit and reports the total',
    async run({ store, record, owner }) {
      const records = Array.from({ length: 7 }, (_, index) => record('list-pages', { updatedAt: `2026-05-0${index + 1}T00:00:00.000Z` }))
      for (const r of records) await store.create(r)
      const all = records.reverse().map(summary)
      const id = owner('list-pages')
      await eventually(async () => expect((await store.listByOwner(id, { offset: 0, limit: 100 })).total).toBe(7))
      expect(await store.listByOwner(id, { offset: 0, limit: 3 })).toEqual({ items: all.slice(0, 3), total: 7 })
      expect(await store.listByOwner(id, { offset: 3, limit: 3 })).toEqual({ items: all.slice(3, 6), total: 7 })
      expect(await store.listByOwner(id, { offset: 6, limit: 3 })).toEqual({ items: all.slice(6), total: 7 })
      expect(await store.listByOwner(id, { offset: 7, limit: 3 })).toEqual({ items: [], total: 7 })
      expect(await store.listByOwner(id, { offset: 1000, limit: 1 })).toEqual({ items: [], total: 7 })
      expect(await store.listByOwner(owner('list-pages-nobody'), { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 })
    },
  },
  {
    title: 'design store › owners are isolated, even when one id is a prefix of another',
    async run({ store, record, owner }) {
      const a = record('iso')
      const b = record('iso1')
      const c = record('iso-1')
      for (const r of [a, b, c]) await store.create(r)
      await eventually(async () => {
        expect(await store.listByOwner(owner('iso'), { offset: 0, limit: 10 })).toEqual({ items: [summary(a)], total: 1 })
        expect(await store.listByOwner(owner('iso1'), { offset: 0, limit: 10 })).toEqual({ items: [summary(b)], total: 1 })
        expect(await store.listByOwner(owner('iso-1'), { offset: 0, limit: 10 })).toEqual({ items: [summary(c)], total: 1 })
      })
    },
  },
  {
    title: 'design store › 50 concurrent creates for one owner all appear in the list',
    async run({ store, record, owner }) {
      // A store that keeps one list value per owner and rewrites it loses entries here.
      const records = Array.from({ length: 50 }, (_, index) => record('concurrent-list', { updatedAt: `2026-06-01T00:00:${String(index).padStart(2, '0')}.000Z` }))
      await Promise.all(records.map((r) => store.create(r)))
      const expected = records.reverse().map(summary)
      await eventually(async () => expect(await store.listByOwner(owner('concurrent-list'), { offset: 0, limit: 100 })).toEqual({ items: expected, total: 50 }))
    },
  },

  // --- persistence ---
  {
    title: 'design store › a new store over the same storage sees earlier designs',
    needsPersistent: true,
    async run({ create, record, owner }) {
      const first = await create()
      const created = record('persistent')
      try {
        await first.create(created)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        expect(await second.get(created.id)).toEqual(created)
        expect(await second.getByRenderCode(created.renderCode)).toEqual(created)
        await eventually(async () => expect(await second.listByOwner(owner('persistent'), { offset: 0, limit: 10 })).toEqual({ items: [summary(created)], total: 1 }))
        await expectConflict(second.create({ ...record('persistent'), id: created.id }))
      } finally {
        await second.dispose?.()
      }
    },
  },

  // --- input validation: the same TypeError from every store, and nothing written ---
  {
    title: 'design store › rejects invalid ids and render codes with a TypeError',
    async run({ store, record, owner }) {
      const page = { offset: 0, limit: 10 }
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of INVALID_IDS) {
        const v = value as string
        cases.push(
          [`get ${label}`, () => store.get(v), code],
          [`delete ${label}`, () => store.delete(v), code],
          [`listByOwner ${label}`, () => store.listByOwner(v, page), code],
          [`getByRenderCode ${label}`, () => store.getByRenderCode(v), code],
          [`create id ${label}`, () => store.create(record('invalid-ids', { id: v })), code],
          [`create ownerId ${label}`, () => store.create(record('invalid-ids', { ownerId: v })), code],
          [`create renderCode ${label}`, () => store.create(record('invalid-ids', { renderCode: v })), code],
          [`update id ${label}`, () => store.update(record('invalid-ids', { id: v })), code],
        )
      }
      cases.push(
        ['getByRenderCode of 15 characters', () => store.getByRenderCode('x'.repeat(15)), 'ERR_INVALID_ARG_VALUE'],
        ['create renderCode of 15 characters', () => store.create(record('invalid-ids', { renderCode: 'x'.repeat(15) })), 'ERR_INVALID_ARG_VALUE'],
      )
      await expectInvalid(cases)
      // The longest valid values are accepted.
      const longest = record('invalid-ids', { id: `${owner('x')}-${'x'.repeat(64)}`.slice(0, 64), renderCode: 'y'.repeat(64) })
      await store.create(longest)
      expect(await store.getByRenderCode('y'.repeat(64))).toEqual(longest)
      await store.delete(longest.id)
      await eventually(async () => expect(await store.listByOwner(owner('invalid-ids'), page)).toEqual({ items: [], total: 0 }))
    },
  },
  {
    title: 'design store › rejects a record with a field of the wrong type or value with a TypeError',
    async run({ store, record, owner }) {
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const value of [null, undefined, 'record', 1, []]) {
        const v = value as never
        cases.push([`create(${JSON.stringify(value)})`, () => store.create(v), 'ERR_INVALID_ARG_TYPE'], [`update(${JSON.stringify(value)})`, () => store.update(v), 'ERR_INVALID_ARG_TYPE'])
      }
      const fields: Array<[string, Partial<Record<keyof DesignRecord, unknown>>, InvalidCode]> = [
        ['name 42', { name: 42 }, 'ERR_INVALID_ARG_TYPE'],
        ['name missing', { name: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['design missing', { design: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['draft missing', { draft: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['createdAt a Date', { createdAt: new Date() }, 'ERR_INVALID_ARG_TYPE'],
        ["createdAt 'yesterday'", { createdAt: 'yesterday' }, 'ERR_INVALID_ARG_VALUE'],
        ["updatedAt '2026-13-45T00:00:00Z'", { updatedAt: '2026-13-45T00:00:00Z' }, 'ERR_INVALID_ARG_VALUE'],
      ]
      for (const [label, change, code] of fields) {
        cases.push([`create with ${label}`, () => store.create(record('invalid-fields', change as Partial<DesignRecord>)), code])
      }
      await expectInvalid(cases)
      expect(await store.listByOwner(owner('invalid-fields'), { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 })
    },
  },
  {
    title: 'design store › listByOwner rejects a page outside offset ≥ 0 and 1 ≤ limit ≤ 100 with a TypeError',
    async run({ store, owner }) {
      const id = owner('invalid-page')
      const list = (page: unknown) => () => store.listByOwner(id, page as { offset: number; limit: number })
      await expectInvalid([
        ['offset -1', list({ offset: -1, limit: 10 }), 'ERR_INVALID_ARG_VALUE'],
        ['offset 1.5', list({ offset: 1.5, limit: 10 }), 'ERR_INVALID_ARG_VALUE'],
        ['offset NaN', list({ offset: Number.NaN, limit: 10 }), 'ERR_INVALID_ARG_VALUE'],
        ["offset '0'", list({ offset: '0', limit: 10 }), 'ERR_INVALID_ARG_TYPE'],
        ['offset missing', list({ limit: 10 }), 'ERR_INVALID_ARG_TYPE'],
        ['limit 0', list({ offset: 0, limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 101', list({ offset: 0, limit: 101 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 2.5', list({ offset: 0, limit: 2.5 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit Infinity', list({ offset: 0, limit: Number.POSITIVE_INFINITY }), 'ERR_INVALID_ARG_VALUE'],
        ["limit '10'", list({ offset: 0, limit: '10' }), 'ERR_INVALID_ARG_TYPE'],
        ['page null', list(null), 'ERR_INVALID_ARG_TYPE'],
        ['page missing', list(undefined), 'ERR_INVALID_ARG_TYPE'],
      ])
      expect(await store.listByOwner(id, { offset: 0, limit: 1 })).toEqual({ items: [], total: 0 })
      expect(await store.listByOwner(id, { offset: 0, limit: 100 })).toEqual({ items: [], total: 0 })
    },
  },
]

// --- internal helpers ---

/** The list item of a record. */
export function summary(record: DesignRecord): DesignSummary {
  return { id: record.id, name: record.name, updatedAt: record.updatedAt }
}

async function expectConflict(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'expected a rejection with ERR_STORE_CONFLICT').toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT' })
}
