/**
 * The cases of the retention-index conformance suite, as data: a stable title, whether a case
 * needs a persistent index, and a function that throws when the index breaks the contract.
 *
 * @module retention-index/retention-index-cases
 */
import type { RetainedFile, RetentionIndex } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** What a case gets: the suite's index, the factory, and records with keys unique to this run. */
export interface RetentionIndexCaseContext {
  /** The index created for the suite (disposed after the last case). */
  index: RetentionIndex
  /** Creates another index over the same storage; the case disposes it. */
  create: () => Promise<RetentionIndex>
  /** A valid signed-file record with a fresh key under this run's prefix, unless `fields` says otherwise. */
  file: (fields?: Partial<RetainedFile>) => RetainedFile
  /** This run's owner id (keys start with it and `/`). */
  owner: string
}

/** One case of the suite. */
export interface RetentionIndexCase {
  /** Stable title, `retention index › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless the caller declares the index persistent. */
  needsPersistent?: boolean
  run: (context: RetentionIndexCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link RetentionIndexCaseContext}. */
export function createRetentionIndexCaseContext(index: RetentionIndex, create: () => RetentionIndex | Promise<RetentionIndex>, prefix = createRunPrefix()): RetentionIndexCaseContext {
  let sequence = 0
  return {
    index,
    owner: prefix,
    create: async () => create(),
    file: (fields = {}) => {
      const n = ++sequence
      return { key: `${prefix}/r_${n}.png`, owner: prefix, bytes: 1000 + n, delivery: 'signed', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T01:00:00.000Z', ...fields }
    },
  }
}

/** The records of `keys` in the order a walk of the whole index (`list`, page by page) visits them. */
async function walk(index: RetentionIndex, keys: ReadonlySet<string>, limit: number): Promise<RetainedFile[]> {
  const seen: RetainedFile[] = []
  let after: string | undefined
  for (;;) {
    const page = await index.list(after === undefined ? { limit } : { after, limit })
    expect(page.length, 'a page holds at most limit records').toBeLessThanOrEqual(limit)
    if (page.length === 0) return seen.filter((f) => keys.has(f.key))
    seen.push(...page)
    after = page[page.length - 1]!.key
  }
}

/** Every case, in the order they run. */
export const retentionIndexCases: readonly RetentionIndexCase[] = [
  {
    title: 'retention index › put then get returns the record; a second put replaces it',
    async run({ index, file }) {
      const signed = file()
      await index.put(signed)
      expect(await index.get(signed.key)).toEqual(signed)
      const hosted = { ...signed, delivery: 'hosted' as const, expiresAt: null, bytes: 7 }
      await index.put(hosted)
      expect(await index.get(signed.key)).toEqual(hosted)
      expect(await index.get(`${signed.key}.missing`), 'an unknown key').toBeNull()
    },
  },
  {
    title: 'retention index › delete removes once and says whether it did',
    async run({ index, file }) {
      const record = file()
      await index.put(record)
      expect(await index.delete(record.key)).toBe(true)
      expect(await index.get(record.key)).toBeNull()
      expect(await index.delete(record.key), 'a second delete').toBe(false)
    },
  },
  {
    title: 'retention index › list walks every record exactly once, page by page, in a fixed order',
    async run({ index, file }) {
      const records = Array.from({ length: 7 }, () => file())
      const keys = new Set(records.map((r) => r.key))
      await Promise.all(records.map((r) => index.put(r)))
      const byKey = (a: RetainedFile, b: RetainedFile) => (a.key < b.key ? -1 : 1)
      const walked = await walk(index, keys, 3)
      expect([...walked].sort(byKey)).toEqual([...records].sort(byKey))
      expect(new Set(walked.map((r) => r.key)).size, 'no record twice').toBe(walked.length)
      // The same order from one page of everything.
      expect((await walk(index, keys, 1000)).map((r) => r.key)).toEqual(walked.map((r) => r.key))
      // A key no longer recorded still works as `after`.
      const gone = walked[2]!
      await index.delete(gone.key)
      const rest = (await index.list({ after: gone.key, limit: 1000 })).filter((r) => keys.has(r.key))
      expect(rest.map((r) => r.key)).toEqual(walked.slice(3).map((r) => r.key))
    },
  },
  {
    title: 'retention index › records survive a new index over the same storage',
    needsPersistent: true,
    async run({ index, file, create }) {
      const record = file({ delivery: 'hosted', expiresAt: null })
      await index.put(record)
      const again = await create()
      try {
        expect(await again.get(record.key)).toEqual(record)
      } finally {
        await again.dispose?.()
      }
    },
  },
  {
    title: 'retention index › invalid input rejects with a coded TypeError and stores nothing',
    async run({ index, file }) {
      const base = file()
      await expectInvalid([
        ['a key that is not a string', () => index.get(42 as unknown as string), 'ERR_INVALID_ARG_TYPE'],
        ['an empty key', () => index.delete(''), 'ERR_INVALID_ARG_VALUE'],
        ['negative bytes', () => index.put({ ...base, bytes: -1 }), 'ERR_INVALID_ARG_VALUE'],
        ['an unknown delivery', () => index.put({ ...base, delivery: 'stream' as never }), 'ERR_INVALID_ARG_VALUE'],
        ['a signed file without expiresAt', () => index.put({ ...base, expiresAt: null }), 'ERR_INVALID_ARG_VALUE'],
        ['an owner outside the alphabet', () => index.put({ ...base, owner: 'a/b' }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 0', () => index.list({ limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 1001', () => index.list({ limit: 1001 }), 'ERR_INVALID_ARG_VALUE'],
      ])
      expect(await index.get(base.key), 'nothing was stored').toBeNull()
    },
  },
]
