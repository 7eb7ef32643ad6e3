/**
 * The cases of the job-store conformance suite, as data: a stable title, whether a case needs a
 * persistent store, and a function that throws when the store breaks the contract.
 * `runJobStoreConformance` registers them with vitest; keeping them as data lets a test run one
 * case directly.
 *
 * @module job-queue/job-store-cases
 */
import type { JobRecord, JobStore } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, INVALID_IDS, type InvalidCode } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** What a case gets: the suite's store, the factory, and records with ids unique to this run. */
export interface JobStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: JobStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<JobStore>
  /**
   * A valid queued record with a fresh id, owned by an owner unique to this run and `label`,
   * unless `fields` says otherwise; `createdAt` = `updatedAt` = 2026-01-01T00:00:00.000Z.
   */
  record: (label: string, fields?: Partial<JobRecord>) => JobRecord
}

/** One case of the suite. */
export interface JobStoreCase {
  /** Stable title, `job store › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless the caller declares the store persistent (`persistent: true`). */
  needsPersistent?: boolean
  /** Skipped when the store has no `listByOwner` (optional in the port). */
  needsListing?: boolean
  run: (context: JobStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link JobStoreCaseContext}. */
export function createJobStoreCaseContext(store: JobStore, create: () => JobStore | Promise<JobStore>, prefix = createRunPrefix()): JobStoreCaseContext {
  let sequence = 0
  return {
    store,
    create: async () => create(),
    record: (label, fields = {}) => {
      const n = ++sequence
      return {
        id: `${prefix}-exp${n}`,
        ownerId: `${prefix}-${label}`,
        designId: `${prefix}-d${n}`,
        status: 'queued',
        request: { format: 'png', delivery: { kind: 'url' }, overrides: { title: `Job ${n}` } },
        attempts: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        ...fields,
      }
    },
  }
}

/** A record's JSON round trip: what a store must give back. */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Every case, in the order they run. */
export const jobStoreCases: readonly JobStoreCase[] = [
  // --- create and read ---
  {
    title: 'job store › create then get returns every field, request, result, error and webhook as equal JSON',
    async run({ store, record }) {
      const created = record('round-trip', {
        status: 'failed',
        request: {
          delivery: { kind: 'webhook', url: 'https://example.com/hook?a=1&b=é' },
          overrides: { title: 'Été — 夏 🌞 "quoted" \\ back\nslash', count: 3, ratio: 0.5, on: true, none: null, list: [1, 'two', { three: 3 }], empty: {} },
          number: 1e21,
        },
        attempts: 3,
        createdAt: '2026-02-03T04:05:06.789Z',
        updatedAt: '2026-02-03T04:06:00.000+02:00',
        startedAt: '2026-02-03T04:05:07.000Z',
        finishedAt: '2026-02-03T04:05:59.123Z',
        result: { url: 'https://files.example.com/a.png', expiresAt: '2026-02-04T00:00:00.000Z', format: 'png', file: { bytes: 1234 } },
        error: { code: 'ERR_RENDER_FAILED', message: 'The font could not be loaded — try again' },
        webhook: {
          url: 'https://example.com/hook',
          state: 'pending',
          attempts: [
            { at: '2026-02-03T04:06:00.000Z', status: 500 },
            { at: '2026-02-03T04:07:00.000Z', error: 'timeout' },
            { at: '2026-02-03T04:08:00.000Z' },
          ],
          nextAttemptAt: '2026-02-03T04:10:00.000Z',
        },
      })
      await store.create(created)
      const found = await store.get(created.id)
      expect(found).toStrictEqual(asJson(created))
      expect(JSON.stringify(found?.request)).toBe(JSON.stringify(created.request))
    },
  },
  {
    title: 'job store › a record without the optional fields comes back without them',
    async run({ store, record }) {
      const created = record('minimal')
      await store.create(created)
      const found = await store.get(created.id)
      expect(found).toStrictEqual(created)
      for (const field of ['startedAt', 'finishedAt', 'result', 'error', 'webhook']) expect(Object.keys(found ?? {}), field).not.toContain(field)
    },
  },
  {
    title: 'job store › get of an unknown id returns null',
    async run({ store, record }) {
      expect(await store.get(record('unknown').id)).toBeNull()
    },
  },
  {
    title: 'job store › returned records are copies',
    async run({ store, record }) {
      const created = record('copies', { request: { nested: { value: 1 } }, webhook: { url: 'https://example.com/h', state: 'pending', attempts: [] } })
      const original = asJson(created)
      await store.create(created)
      // Changing the record given to create changes nothing stored.
      ;(created.request.nested as { value: number }).value = 2
      created.webhook!.attempts.push({ at: '2026-01-01T00:00:00.000Z' })
      created.status = 'failed'
      const first = (await store.get(original.id))!
      expect(first).toStrictEqual(original)
      // Changing a returned record changes nothing stored.
      ;(first.request.nested as { value: number }).value = 3
      first.webhook!.attempts.push({ at: '2026-01-01T00:00:00.000Z' })
      first.status = 'succeeded'
      expect(await store.get(original.id)).toStrictEqual(original)
      // Nor does changing a record after update.
      const updated = { ...asJson(original), status: 'processing' as const }
      await store.update(updated)
      ;(updated.request.nested as { value: number }).value = 4
      expect((await store.get(original.id))?.request).toStrictEqual({ nested: { value: 1 } })
    },
  },
  {
    title: 'job store › 50 records created at once can each be read back',
    async run({ store, record }) {
      const records = Array.from({ length: 50 }, () => record('many'))
      await Promise.all(records.map((r) => store.create(r)))
      const found = await Promise.all(records.map((r) => store.get(r.id)))
      expect(found).toStrictEqual(records)
    },
  },

  // --- conflicts ---
  {
    title: 'job store › create rejects a reused id with ERR_STORE_CONFLICT and keeps the first',
    async run({ store, record }) {
      const first = record('conflict')
      await store.create(first)
      await expectConflict(store.create({ ...record('conflict-other'), id: first.id, status: 'succeeded' }))
      expect(await store.get(first.id)).toStrictEqual(first)
    },
  },
  {
    title: 'job store › concurrent creates of one id: exactly one succeeds',
    async run({ store, record }) {
      const id = record('concurrent-conflict').id
      const racers = Array.from({ length: 5 }, (_, index) => record('concurrent-conflict', { id, request: { racer: index } }))
      const results = await Promise.allSettled(racers.map((r) => store.create(r)))
      expect(results.filter((r) => r.status === 'fulfilled').length, 'creates of one id that succeeded').toBe(1)
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT' })
      const winner = results.findIndex((r) => r.status === 'fulfilled')
      expect(await store.get(id)).toStrictEqual(racers[winner])
    },
  },

  // --- update ---
  {
    title: 'job store › update replaces an existing record (fields left out are gone) and returns true',
    async run({ store, record }) {
      const created = record('update')
      await store.create(created)
      const processing: JobRecord = { ...created, status: 'processing', attempts: 1, startedAt: '2026-01-01T00:00:01.000Z', updatedAt: '2026-01-01T00:00:01.000Z', error: { code: 'ERR_RENDER_BUSY', message: 'busy' } }
      expect(await store.update(processing)).toBe(true)
      expect(await store.get(created.id)).toStrictEqual(processing)
      // A later version without `error`: replaced, not merged.
      const { error: _error, ...withoutError } = processing
      const succeeded: JobRecord = { ...withoutError, status: 'succeeded', finishedAt: '2026-01-01T00:00:09.000Z', updatedAt: '2026-01-01T00:00:09.000Z', result: { url: 'https://files.example.com/x.png' } }
      expect(await store.update(succeeded)).toBe(true)
      const found = await store.get(created.id)
      expect(found).toStrictEqual(succeeded)
      expect(Object.keys(found ?? {})).not.toContain('error')
    },
  },
  {
    title: 'job store › update of an unknown id returns false and creates nothing',
    async run({ store, record }) {
      const missing = record('update-unknown')
      expect(await store.update(missing)).toBe(false)
      expect(await store.get(missing.id)).toBeNull()
    },
  },
  {
    title: 'job store › the last write wins, and concurrent updates leave one whole version',
    async run({ store, record }) {
      const created = record('last-write')
      await store.create(created)
      await store.update({ ...created, status: 'processing', attempts: 1 })
      await store.update({ ...created, status: 'queued', attempts: 2 })
      expect(await store.get(created.id)).toMatchObject({ status: 'queued', attempts: 2 })
      const versions = Array.from({ length: 20 }, (_, index) => ({ ...created, attempts: index + 3, request: { version: index, padding: 'x'.repeat(2_000) } }))
      const results = await Promise.all(versions.map((v) => store.update(v)))
      expect(results.every(Boolean)).toBe(true)
      const found = await store.get(created.id)
      expect(versions, 'the stored record is one of the versions written, whole').toContainEqual(found)
    },
  },

  // --- persistence ---
  {
    title: 'job store › a new store over the same storage sees earlier records',
    needsPersistent: true,
    async run({ create, record }) {
      const first = await create()
      const created = record('persistent')
      try {
        await first.create(created)
        await first.update({ ...created, status: 'processing', attempts: 1 })
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        expect(await second.get(created.id)).toStrictEqual({ ...created, status: 'processing', attempts: 1 })
        await expectConflict(second.create({ ...record('persistent'), id: created.id }))
      } finally {
        await second.dispose?.()
      }
    },
  },

  // --- input validation: the same TypeError from every store, and nothing written ---
  {
    title: 'job store › rejects invalid ids with a TypeError',
    async run({ store, record }) {
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of INVALID_IDS) {
        const v = value as string
        cases.push(
          [`get ${label}`, () => store.get(v), code],
          [`create id ${label}`, () => store.create(record('invalid-ids', { id: v })), code],
          [`create ownerId ${label}`, () => store.create(record('invalid-ids', { ownerId: v })), code],
          [`create designId ${label}`, () => store.create(record('invalid-ids', { designId: v })), code],
          [`update id ${label}`, () => store.update(record('invalid-ids', { id: v })), code],
        )
      }
      await expectInvalid(cases)
      // The longest valid id is accepted.
      const longest = record('invalid-ids')
      const id = `${longest.id}-${'x'.repeat(64)}`.slice(0, 64)
      await store.create({ ...longest, id })
      expect(await store.get(id)).toStrictEqual({ ...longest, id })
    },
  },
  {
    title: 'job store › rejects a record with a field of the wrong type or value with a TypeError, writing nothing',
    async run({ store, record }) {
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const value of [null, undefined, 'record', 1, []]) {
        const v = value as never
        cases.push([`create(${JSON.stringify(value)})`, () => store.create(v), 'ERR_INVALID_ARG_TYPE'], [`update(${JSON.stringify(value)})`, () => store.update(v), 'ERR_INVALID_ARG_TYPE'])
      }
      const cycle: Record<string, unknown> = {}
      cycle.self = cycle
      const fields: Array<[string, Record<string, unknown>, InvalidCode]> = [
        ["status 'done'", { status: 'done' }, 'ERR_INVALID_ARG_VALUE'],
        ['status 1', { status: 1 }, 'ERR_INVALID_ARG_TYPE'],
        ['status missing', { status: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['request missing', { request: undefined }, 'ERR_INVALID_ARG_TYPE'],
        ['request null', { request: null }, 'ERR_INVALID_ARG_TYPE'],
        ['request an array', { request: [] }, 'ERR_INVALID_ARG_TYPE'],
        ['request with a cycle', { request: cycle }, 'ERR_INVALID_ARG_VALUE'],
        ['attempts -1', { attempts: -1 }, 'ERR_INVALID_ARG_VALUE'],
        ['attempts 1.5', { attempts: 1.5 }, 'ERR_INVALID_ARG_VALUE'],
        ["attempts '1'", { attempts: '1' }, 'ERR_INVALID_ARG_TYPE'],
        ['createdAt a Date', { createdAt: new Date() }, 'ERR_INVALID_ARG_TYPE'],
        ["createdAt 'yesterday'", { createdAt: 'yesterday' }, 'ERR_INVALID_ARG_VALUE'],
        ["updatedAt '2026-13-45T00:00:00Z'", { updatedAt: '2026-13-45T00:00:00Z' }, 'ERR_INVALID_ARG_VALUE'],
        ["startedAt 'soon'", { startedAt: 'soon' }, 'ERR_INVALID_ARG_VALUE'],
        ['finishedAt 0', { finishedAt: 0 }, 'ERR_INVALID_ARG_TYPE'],
        ["result 'ok'", { result: 'ok' }, 'ERR_INVALID_ARG_TYPE'],
        ["error 'boom'", { error: 'boom' }, 'ERR_INVALID_ARG_TYPE'],
        ['error without a code', { error: { message: 'boom' } }, 'ERR_INVALID_ARG_TYPE'],
        ["webhook 'https://example.com'", { webhook: 'https://example.com' }, 'ERR_INVALID_ARG_TYPE'],
        ["webhook state 'sent'", { webhook: { url: 'https://example.com/h', state: 'sent', attempts: [] } }, 'ERR_INVALID_ARG_VALUE'],
        ['webhook attempts missing', { webhook: { url: 'https://example.com/h', state: 'pending' } }, 'ERR_INVALID_ARG_TYPE'],
        ["webhook attempt at 'now'", { webhook: { url: 'https://example.com/h', state: 'pending', attempts: [{ at: 'now' }] } }, 'ERR_INVALID_ARG_VALUE'],
        ["webhook nextAttemptAt 'later'", { webhook: { url: 'https://example.com/h', state: 'pending', attempts: [], nextAttemptAt: 'later' } }, 'ERR_INVALID_ARG_VALUE'],
      ]
      const written: JobRecord[] = []
      for (const [label, change, code] of fields) {
        const created = record('invalid-fields', change as Partial<JobRecord>)
        written.push(created)
        cases.push([`create with ${label}`, () => store.create(created), code])
      }
      // update checks the record too, and leaves the stored one alone.
      const stored = record('invalid-fields')
      await store.create(stored)
      cases.push(["update with status 'done'", () => store.update({ ...stored, status: 'done' as never }), 'ERR_INVALID_ARG_VALUE'])
      await expectInvalid(cases)
      for (const created of written) expect(await store.get(created.id), `${created.id} was not written`).toBeNull()
      expect(await store.get(stored.id)).toStrictEqual(stored)
    },
  },

  // --- listByOwner (optional) ---
  {
    title: 'job store › listByOwner gives the owner\'s jobs newest first (createdAt, then id), paged, with the total, never another owner\'s',
    needsListing: true,
    async run({ store, record }) {
      const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`
      const jobs = [record('list', { createdAt: at(1) }), record('list', { createdAt: at(3) }), record('list', { createdAt: at(2) }), record('list', { createdAt: at(2) })]
      const owner = jobs[0]!.ownerId
      for (const job of jobs) await store.create({ ...job, ownerId: owner })
      await store.create(record('list-other', { createdAt: at(4) }))
      const expected = [jobs[1]!, ...[jobs[2]!, jobs[3]!].sort((a, b) => (a.id < b.id ? 1 : -1)), jobs[0]!].map((j) => ({ ...j, ownerId: owner }))
      const all = await store.listByOwner!(owner, { offset: 0, limit: 100 })
      expect(all.total).toBe(4)
      expect(all.items).toStrictEqual(expected)
      const second = await store.listByOwner!(owner, { offset: 2, limit: 2 })
      expect(second).toStrictEqual({ items: expected.slice(2), total: 4 })
      expect(await store.listByOwner!(owner, { offset: 4, limit: 10 })).toStrictEqual({ items: [], total: 4 })
      // An update is listed as it is now, in the same place.
      const done = { ...expected[3]!, status: 'succeeded' as const, updatedAt: at(9) }
      expect(await store.update(done)).toBe(true)
      expect((await store.listByOwner!(owner, { offset: 3, limit: 1 })).items).toStrictEqual([done])
      expect(await store.listByOwner!(record('list-nobody').ownerId, { offset: 0, limit: 10 })).toStrictEqual({ items: [], total: 0 })
    },
  },
  {
    title: 'job store › listByOwner with webhooks: true gives only the jobs created with a webhook, newest first',
    needsListing: true,
    async run({ store, record }) {
      const hook = (minute: number) => ({ url: 'https://example.com/hook', state: 'pending' as const, attempts: [{ at: `2026-03-01T11:0${minute}:30.000Z`, status: 500, error: 'HTTP 500' }] })
      const plain = record('hooks', { createdAt: '2026-03-01T11:00:00.000Z' })
      const owner = plain.ownerId
      const older = { ...record('hooks', { createdAt: '2026-03-01T11:01:00.000Z', webhook: hook(1) }), ownerId: owner }
      const newer = { ...record('hooks', { createdAt: '2026-03-01T11:02:00.000Z', webhook: hook(2) }), ownerId: owner }
      for (const job of [plain, older, newer]) await store.create(job)
      expect(await store.listByOwner!(owner, { offset: 0, limit: 10, webhooks: true })).toStrictEqual({ items: [newer, older], total: 2 })
      expect((await store.listByOwner!(owner, { offset: 0, limit: 10 })).total).toBe(3)
      // Attempts recorded later are listed as they are now.
      const first = hook(2)
      const delivered: JobRecord = { ...newer, webhook: { ...first, state: 'delivered', attempts: [...first.attempts, { at: '2026-03-01T11:03:00.000Z', status: 200 }] } }
      expect(await store.update(delivered)).toBe(true)
      expect((await store.listByOwner!(owner, { offset: 0, limit: 1, webhooks: true })).items).toStrictEqual([delivered])
    },
  },
  {
    title: 'job store › listByOwner rejects a bad owner id or page with coded TypeErrors',
    needsListing: true,
    async run({ store }) {
      const page = { offset: 0, limit: 10 }
      await expectInvalid([
        ...INVALID_IDS.map(([label, value, code]): [string, () => Promise<unknown>, InvalidCode] => [`ownerId ${label}`, () => store.listByOwner!(value as string, page), code]),
        ['limit 0', () => store.listByOwner!('owner', { offset: 0, limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 101', () => store.listByOwner!('owner', { offset: 0, limit: 101 }), 'ERR_INVALID_ARG_VALUE'],
        ['offset -1', () => store.listByOwner!('owner', { offset: -1, limit: 1 }), 'ERR_INVALID_ARG_VALUE'],
        ["limit '10'", () => store.listByOwner!('owner', { offset: 0, limit: '10' as never }), 'ERR_INVALID_ARG_TYPE'],
        ["webhooks 'yes'", () => store.listByOwner!('owner', { offset: 0, limit: 1, webhooks: 'yes' as never }), 'ERR_INVALID_ARG_TYPE'],
      ])
    },
  },
]

// --- internal helpers ---

async function expectConflict(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'expected a rejection with ERR_STORE_CONFLICT').toMatchObject({ name: 'LithoError', code: 'ERR_STORE_CONFLICT' })
}
