/**
 * Design store cases: lists.
 *
 * @module design-store/cases/lists
 */
import type { DesignRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { summary, type DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: lists. */
export const listsCases: readonly DesignStoreCase[] = [
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
]
