/**
 * Design store cases: create and read.
 *
 * @module design-store/cases/create-and-read
 */
import type { DesignRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import type { DesignStoreCase } from '../design-store-kit.js'

/** The design store cases of this topic: create and read. */
export const createAndReadCases: readonly DesignStoreCase[] = [
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
]
