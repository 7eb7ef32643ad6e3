/**
 * Design store cases: input validation: the same TypeError from every store, and nothing written.
 *
 * @module design-store/cases/input-validation
 */
import type { DesignRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually, expectInvalid, INVALID_IDS, type InvalidCode } from '../../_expect.js'
import type { DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: input validation: the same TypeError from every store, and nothing written. */
export const inputValidationCases: readonly DesignStoreCase[] = [
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
