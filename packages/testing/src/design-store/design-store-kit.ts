/**
 * The context, helpers and types the design store cases share (the cases themselves are in
 * `./cases/`, one file per topic; `./design-store-cases.ts` lists them in order).
 *
 * @module design-store/design-store-kit
 */
import type { DesignRecord, DesignStore, DesignSummary } from '@litho/core/contracts'
import { expect } from 'vitest'
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


// --- internal helpers ---

/** The list item of a record. */
export function summary(record: DesignRecord): DesignSummary {
  return { id: record.id, name: record.name, updatedAt: record.updatedAt }
}

export async function expectConflict(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'expected a rejection with ERR_STORE_CONFLICT').toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT' })
}
