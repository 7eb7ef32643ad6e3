/**
 * Design store cases: update.
 *
 * @module design-store/cases/update
 */
import type { DesignRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import type { DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: update. */
export const updateCases: readonly DesignStoreCase[] = [
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
]
