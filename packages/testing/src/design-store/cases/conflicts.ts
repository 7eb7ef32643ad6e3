/**
 * Design store cases: conflicts.
 *
 * @module design-store/cases/conflicts
 */
import { expect } from 'vitest'
import { expectConflict, type DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: conflicts. */
export const conflictsCases: readonly DesignStoreCase[] = [
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
]
