import { randomBytes } from 'node:crypto'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryJobStore } from '@litho/storage-adapters/job-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { describe, expect, it } from 'vitest'
import type { AuthStateStore, Meter } from '../../src/contracts/index.js'
import {
  LithoError,
  bulkRender,
  createExportJobHandler,
  createUrlSigner,
  enqueueExportJob,
  exportDesign,
  parseBulkRequest,
  reconcileRefunds,
  renderDesign,
  settleRefund,
  stateStoreRefundLedger,
  type RefundSettings,
  type RenderOptions,
  type RenderResult,
} from '../../src/index.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const NOW = new Date('2026-11-23T12:00:00Z')
const WINDOW = '2026-11'
const EXPIRES = new Date('2026-12-01T00:00:00Z')

/**
 * A memory meter whose refunds fail: the first `failures` of them, or every one until
 * `restore()`. `given` lists the ids the meter really gave back (refund → true).
 */
function flakyMeter(failures: number | 'until-restored') {
  const inner = memoryMeter()
  let left = failures === 'until-restored' ? Number.POSITIVE_INFINITY : failures
  const given: string[] = []
  const meter: Meter = {
    name: 'flaky',
    capabilities: inner.capabilities,
    consume: (request) => inner.consume(request),
    usage: (key) => inner.usage(key),
    history: (request) => inner.history(request),
    async refund(request) {
      if (left > 0) {
        left -= 1
        throw new LithoError('ERR_STORAGE', '[meter:flaky] refund: connection refused')
      }
      const done = await inner.refund(request)
      if (done) given.push(request.id)
      return done
    },
  }
  return { meter, given, restore: () => void (left = 0), usage: () => inner.usage({ subject: alice.id, window: WINDOW }) }
}

/** Refund settings over a memory state store, recording what is reported; retries without waiting. */
function refundSettings(store: AuthStateStore = memoryAuthStateStore()) {
  const reported: unknown[] = []
  const refunds: RefundSettings & { ledger: ReturnType<typeof stateStoreRefundLedger> } = { ledger: stateStoreRefundLedger(store), report: (error) => reported.push(error), retryDelaysMs: [1, 1] }
  return { refunds, reported }
}

/** A renderer that answers fake bytes, or fails with `failure` when set. */
function renderer() {
  const state = { failure: undefined as Error | undefined }
  return {
    state,
    async render(document: unknown, options: RenderOptions = {}): Promise<RenderResult> {
      if (state.failure) throw state.failure
      const format = options.format ?? 'jpeg'
      const doc = document as { width: number; height: number }
      return { bytes: new Uint8Array([1, 2, 3]), contentType: `image/${format}`, format, width: doc.width, height: doc.height, variation: options.variation ?? 'master', warnings: [] }
    },
  }
}

const document = { version: 2, width: 200, height: 100, background: '#ffffff', components: [{ key: 'title', type: 'text', width: 180, height: 40, text: 'Hi' }] }

/** Every path that refunds, with its services over `meter` and `refunds`; each runs one failing operation. */
async function paths(meter: Meter, refunds: RefundSettings) {
  const designs = memoryDesignStore()
  const renderCode = `rc_${randomBytes(12).toString('base64url')}`
  await designs.create({ id: 'd_0001', ownerId: alice.id, name: 'Card', renderCode, design: document, draft: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() })
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const failing = renderer()
  failing.state.failure = new LithoError('ERR_RENDER_FAILED', 'the font could not be parsed')
  const services = { designs, files: memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer }), meter, renderer: failing, clock: { now: () => NOW }, refunds }
  return {
    render: () => renderDesign(services, { account: alice, renderCode, params: { format: 'png' } }).then(() => 'rendered', (e: LithoError) => e.code),
    bulk: async () => (await bulkRender(services, { account: alice, request: parseBulkRequest({ items: [{ designId: renderCode }] }) })).body.summary.failed,
    export: () => exportDesign(services, { account: alice, id: 'd_0001', delivery: 'hosted', params: {} }).then(() => 'exported', (e: LithoError) => e.code),
    'export job': async () => {
      const jobs = memoryJobStore()
      const jobServices = { ...services, jobs, queue: { enqueue: async () => {} } }
      const ack = await enqueueExportJob(jobServices, { account: alice, id: 'd_0001', request: { delivery: 'hosted', params: {}, overrides: {} } })
      await createExportJobHandler(jobServices)({ id: ack.body.exportId, attempt: 1 })
      return (await jobs.get(ack.body.exportId))!.status
    },
  }
}

describe('settleRefund', () => {
  it.each(['render', 'bulk', 'export', 'export job'] as const)('refund › %s: a meter that fails its first refund is retried, usage ends refunded, nothing recorded', async (path) => {
    const flaky = flakyMeter(1)
    const { refunds, reported } = refundSettings()
    const outcome = await (await paths(flaky.meter, refunds))[path]()
    expect(outcome).toEqual({ render: 'ERR_RENDER_FAILED', bulk: 1, export: 'ERR_RENDER_FAILED', 'export job': 'failed' }[path])
    expect(await flaky.usage()).toBe(0)
    expect(flaky.given).toHaveLength(1)
    expect(await refunds.ledger.list()).toEqual([])
    expect(reported).toEqual([])
  })

  it.each(['render', 'bulk', 'export', 'export job'] as const)(
    'refund › %s: a meter that fails every refund until restored: recorded and reported, then given back once by reconcileRefunds',
    async (path) => {
      const flaky = flakyMeter('until-restored')
      const { refunds, reported } = refundSettings()
      await (await paths(flaky.meter, refunds))[path]()
      expect(await flaky.usage()).toBe(1)
      const pending = await refunds.ledger.list()
      expect(pending).toEqual([
        expect.objectContaining({ subject: alice.id, window: WINDOW, operation: { render: 'render', bulk: 'bulk', export: 'export', 'export job': 'export-job' }[path], tries: 3, lastError: '[meter:flaky] refund: connection refused' }),
      ])
      expect(reported).toHaveLength(1)
      expect(String((reported[0] as Error).message)).toMatch(/failed 3 times .*recorded/)

      // Still down: reconciliation keeps it.
      expect(await reconcileRefunds({ meter: flaky.meter, refunds })).toEqual({ refunded: 0, alreadySettled: 0, pending: 1 })
      expect((await refunds.ledger.list())[0]!.tries).toBe(4)

      flaky.restore()
      expect(await reconcileRefunds({ meter: flaky.meter, refunds })).toEqual({ refunded: 1, alreadySettled: 0, pending: 0 })
      expect(await flaky.usage()).toBe(0)
      expect(await refunds.ledger.list()).toEqual([])
      // Idempotent: again, nothing is given back twice.
      expect(await reconcileRefunds({ meter: flaky.meter, refunds })).toEqual({ refunded: 0, alreadySettled: 0, pending: 0 })
      expect(flaky.given).toEqual([pending[0]!.id])
      expect(await flaky.usage()).toBe(0)
    },
  )

  it('refund › a refund already taken before reconciliation (recorded twice) is settled without a second refund', async () => {
    const flaky = flakyMeter('until-restored')
    const { refunds } = refundSettings()
    await flaky.meter.consume({ subject: alice.id, window: WINDOW, amount: 1, limit: 10, id: 'r_1', expiresAt: EXPIRES })
    await settleRefund({ meter: flaky.meter, refunds }, { subject: alice.id, window: WINDOW, id: 'r_1' }, 'render')
    await settleRefund({ meter: flaky.meter, refunds }, { subject: alice.id, window: WINDOW, id: 'r_1' }, 'render')
    expect(await refunds.ledger.list()).toEqual([expect.objectContaining({ id: 'r_1', tries: 6 })])
    flaky.restore()
    // The operator gave it back by hand meanwhile: the ledger entry is settled, not refunded again.
    expect(await flaky.meter.refund({ subject: alice.id, window: WINDOW, id: 'r_1' })).toBe(true)
    expect(await reconcileRefunds({ meter: flaky.meter, refunds })).toEqual({ refunded: 0, alreadySettled: 1, pending: 0 })
    expect(flaky.given).toEqual(['r_1'])
  })

  it('refund › when the ledger fails too, the refund is reported loudly with every detail to give it back by hand', async () => {
    const flaky = flakyMeter('until-restored')
    const broken = memoryAuthStateStore()
    broken.add = async () => {
      throw new LithoError('ERR_STORAGE', '[auth-state:memory] add: disk full')
    }
    const { refunds, reported } = refundSettings(broken)
    await flaky.meter.consume({ subject: alice.id, window: WINDOW, amount: 1, limit: 10, id: 'r_2', expiresAt: EXPIRES })
    expect(await settleRefund({ meter: flaky.meter, refunds }, { subject: alice.id, window: WINDOW, id: 'r_2' }, 'bulk')).toBe(false)
    expect(reported).toHaveLength(1)
    const error = reported[0] as LithoError
    expect(error.code).toBe('ERR_STORAGE')
    expect(error.message).toMatch(/^REFUND NOT RECORDED: the refund of bulk r_2 \(subject u_alice, window 2026-11\) failed 3 times .*disk full.*Meter\.refund\(\{"subject":"u_alice","window":"2026-11","id":"r_2"\}\)/)
    expect(error.details).toMatchObject({ refund: { subject: alice.id, window: WINDOW, id: 'r_2', operation: 'bulk' }, ledgerError: '[auth-state:memory] add: disk full' })
  })

  it('refund › without a ledger a failed refund is still reported, never swallowed', async () => {
    const flaky = flakyMeter('until-restored')
    const reported: unknown[] = []
    await settleRefund({ meter: flaky.meter, refunds: { report: (e) => reported.push(e), retryDelaysMs: [] } }, { subject: alice.id, window: WINDOW, id: 'r_3' }, 'render')
    expect(reported).toEqual([expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringMatching(/no refund ledger is configured/) })])
  })

  it('refund › concurrent records from many callers on one ledger keep every entry', async () => {
    const flaky = flakyMeter('until-restored')
    const { refunds } = refundSettings()
    await Promise.all(Array.from({ length: 20 }, (_, i) => settleRefund({ meter: flaky.meter, refunds }, { subject: alice.id, window: WINDOW, id: `r_c${i}` }, 'bulk')))
    expect((await refunds.ledger.list()).map((r) => r.id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `r_c${i}`).sort())
  })
})
