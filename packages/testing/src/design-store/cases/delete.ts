/**
 * Design store cases: delete.
 *
 * @module design-store/cases/delete
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { summary, type DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: delete. */
export const deleteCases: readonly DesignStoreCase[] = [
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
]
