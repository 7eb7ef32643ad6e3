// An export job the queue gives up on (runs used up, or cut off by crashes too often) is marked
// failed with the reason and refunded once, on the memory and fs queues.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryJobStore } from '@litho/storage-adapters/job-store'
import { fsJobQueue, memoryJobQueue } from '@litho/storage-adapters/job-queue'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { afterAll, expect, it } from 'vitest'
import type { JobQueue } from '../../src/contracts/index.js'
import { EXPORT_ABANDONED, LithoError, createExportJobHandler, createUrlSigner, enqueueExportJob, type RenderResult } from '../../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'litho-export-give-up-'))
const queues: JobQueue[] = []
afterAll(async () => {
  await Promise.all(queues.map((q) => q.close()))
  rmSync(root, { recursive: true, force: true })
})
const alice = { id: 'u_alice', plan: 'pro' as const }
const document = { version: 2, width: 200, height: 100, background: '#ffffff', components: [{ key: 'title', type: 'text', width: 180, height: 40, text: 'Hi' }] }

async function setup(queue: JobQueue) {
  queues.push(queue)
  const designs = memoryDesignStore()
  const now = new Date().toISOString()
  await designs.create({ id: 'd_0001', ownerId: alice.id, name: 'Card', renderCode: `rc_${randomBytes(12).toString('base64url')}`, design: document, draft: null, createdAt: now, updatedAt: now })
  const meter = memoryMeter()
  const refunded: string[] = []
  const countingMeter = { ...meter, name: meter.name, capabilities: meter.capabilities, consume: meter.consume, usage: meter.usage, history: meter.history, refund: async (r: { subject: string; window: string; id: string }) => (refunded.push(r.id), meter.refund(r)) }
  const renders: number[] = []
  const jobs = memoryJobStore()
  const services = {
    designs,
    files: memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) }),
    meter: countingMeter,
    // The render queue is always full: a transient failure, retried by the handler.
    renderer: { render: async (): Promise<RenderResult> => (renders.push(1), Promise.reject(new LithoError('ERR_RENDER_BUSY', 'the render queue is full'))) },
    jobs,
    queue,
    baseRetryMs: 1,
    refunds: { retryDelaysMs: [] },
  }
  const handler = createExportJobHandler(services)
  const usage = () => meter.usage({ subject: alice.id, window: new Date().toISOString().slice(0, 7) })
  return { services, handler, jobs, usage, refunded, renders }
}

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10))
}

it.each(['memory', 'fs'] as const)('export job › %s queue: runs used up before the handler ends the job → failed with the reason, refunded once', async (kind) => {
  // The queue allows 2 runs; the handler would retry a busy renderer up to 3.
  const queue = kind === 'memory' ? memoryJobQueue({ maxRuns: 2, onError: () => {} }) : fsJobQueue({ dir: join(root, 'runs'), pollMs: 10, maxRuns: 2, onError: () => {} })
  const { services, handler, jobs, usage, refunded, renders } = await setup(queue)
  queue.start(handler, { concurrency: 1, onGiveUp: handler.onGiveUp })
  const ack = await enqueueExportJob(services, { account: alice, id: 'd_0001', request: { delivery: 'hosted', params: {}, overrides: {} } })
  expect(await usage()).toBe(1)
  await waitFor(async () => (await jobs.get(ack.body.exportId))?.status === 'failed')
  const record = (await jobs.get(ack.body.exportId))!
  expect(record).toMatchObject({ status: 'failed', attempts: 2, error: { code: EXPORT_ABANDONED, message: expect.stringContaining('gave up after 2 runs (maxRuns)') } })
  expect(renders).toHaveLength(2)
  expect(await usage()).toBe(0)
  // Announced once more (a crash before the queue forgot it): nothing changes, nothing refunded twice.
  await handler.onGiveUp({ id: ack.body.exportId, attempt: 2 }, 'gave up again')
  expect(refunded).toEqual([ack.body.exportId])
  expect((await jobs.get(ack.body.exportId))!.error!.message).toContain('gave up after 2 runs')
})

it('export job › fs queue: a job whose runs were cut off by crashes is failed and refunded at the next start, never rendered', async () => {
  const dir = join(root, 'crashes')
  const queue = fsJobQueue({ dir, pollMs: 10, maxRuns: 2, onError: () => {} })
  const { services, handler, jobs, usage, renders } = await setup(queue)
  // Enqueued (record stored, one render consumed) by a process that then crashed twice mid-run.
  const ack = await enqueueExportJob({ ...services, queue: { enqueue: async () => {} } }, { account: alice, id: 'd_0001', request: { delivery: 'signed', params: {}, overrides: {} } })
  const record = (await jobs.get(ack.body.exportId))!
  await jobs.update({ ...record, status: 'processing', attempts: 2 })
  mkdirSync(join(dir, 'active'), { recursive: true })
  writeFileSync(join(dir, 'active', `${ack.body.exportId}.json`), JSON.stringify({ id: ack.body.exportId, attempts: 1, enqueuedAt: new Date().toISOString() }))
  expect(await usage()).toBe(1)
  queue.start(handler, { concurrency: 1, onGiveUp: handler.onGiveUp })
  await waitFor(async () => (await jobs.get(ack.body.exportId))?.status === 'failed')
  expect(await jobs.get(ack.body.exportId)).toMatchObject({ status: 'failed', error: { code: EXPORT_ABANDONED, message: expect.stringContaining('cut off') } })
  expect(renders).toEqual([])
  expect(await usage()).toBe(0)
})
