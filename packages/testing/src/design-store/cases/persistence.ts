/**
 * Design store cases: persistence.
 *
 * @module design-store/cases/persistence
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { expectConflict, summary, type DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: persistence. */
export const persistenceCases: readonly DesignStoreCase[] = [
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
]
