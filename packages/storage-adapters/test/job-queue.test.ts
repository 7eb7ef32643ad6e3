// The job queues: the conformance suite on memory, fs (temporary directories) and BullMQ (the
// real Redis at REDIS_URL, default redis://127.0.0.1:6379; never skipped: without Redis these
// fail, loudly), then what the suite cannot see: file and key layouts, maxRuns, options, and
// real crashes (a child process killed with SIGKILL mid-run). BullMQ keys live under a prefix
// unique to the run and are deleted at the end.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { JobOutcome, JobQueue, QueuedJob } from '@litho/core/contracts'
import { runJobQueueConformance } from '@litho/testing/job-queue'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { toBullmqJobId } from '../src/redis/job-queue.js'
import { bullmqJobQueue, fsJobQueue, memoryJobQueue } from '../src/job-queue.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-job-queue-')
const bullPrefix = `${redisBase}:bull`

/** The suite's throwing handler and its give-up case are expected; anything else a queue reports is printed. */
const onError = (error: unknown) => {
  const message = String((error as Error)?.message)
  if (!message.includes('expected by the job-queue suite') && !message.includes('job stubborn failed: gave up')) console.error('[job-queue test]', error)
}
/** BullMQ in tests: locks of 1 s checked every 0.5 s, so a cut-off run is picked up in about 2 s. */
const FAST_BULLMQ = { lockDurationMs: 1_000, stalledIntervalMs: 500 }

runJobQueueConformance({ name: 'memory', create: ({ closeTimeoutMs }) => memoryJobQueue({ closeTimeoutMs, backoffMs: 50, onError }) })
runJobQueueConformance({ name: 'fs', create: ({ space, closeTimeoutMs }) => fsJobQueue({ dir: join(root, 'suite', space), pollMs: 50, closeTimeoutMs, backoffMs: 50, onError }) })
runJobQueueConformance({
  name: 'bullmq',
  recoveryTimeoutMs: 8_000,
  create: ({ space, closeTimeoutMs }) => bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name: space, closeTimeoutMs, backoffMs: 50, onError, ...FAST_BULLMQ }),
})

// --- helpers ---

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(condition: () => boolean, what: string, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`)
    await sleep(10)
  }
}

/** Queues a test made; closed after it. */
const open: JobQueue[] = []
const track = <Q extends JobQueue>(queue: Q): Q => (open.push(queue), queue)
afterEach(async () => {
  await Promise.all(open.splice(0).map((queue) => queue.close()))
})

/** A handler recording every run, ending each with `outcome(job)`. */
function recording(outcome: (job: QueuedJob) => JobOutcome | Promise<JobOutcome> = () => ({ done: true })) {
  const runs: QueuedJob[] = []
  return {
    runs,
    handler: async (job: QueuedJob) => {
      runs.push(job)
      return outcome(job)
    },
  }
}

/** Runs test/fixtures/job-queue-hang.ts in a child; resolves with it and its output so far, live. */
function startHangingChild(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  const script = fileURLToPath(new URL('fixtures/job-queue-hang.ts', import.meta.url))
  const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  return { child, output: () => out, exited }
}

// --- memory ---

describe('memory job queue', () => {
  it('memory › maxRuns: a job still asking for a retry on its last run is dropped; onError is told of each throw and of giving up', async () => {
    const errors: Array<[unknown, QueuedJob | undefined]> = []
    const queue = track(memoryJobQueue({ maxRuns: 3, backoffMs: 10, onError: (error, job) => errors.push([error, job]) }))
    const { runs, handler } = recording((job) => {
      if (job.attempt === 1) throw new Error('boom')
      return { retryInMs: 10 }
    })
    queue.start(handler, { concurrency: 1 })
    await queue.enqueue({ id: 'capped' })
    await until(() => runs.length >= 3, '3 runs')
    await sleep(100)
    expect(runs.map((run) => run.attempt)).toStrictEqual([1, 2, 3])
    expect(errors).toHaveLength(2)
    expect(errors[0]).toStrictEqual([expect.objectContaining({ message: 'boom' }), { id: 'capped', attempt: 1 }])
    expect(errors[1]).toStrictEqual([expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringContaining('gave up after 3 runs') }), { id: 'capped', attempt: 3 }])
    // Dropped: the id can be enqueued again, from attempt 1.
    await queue.enqueue({ id: 'capped' })
    await until(() => runs.length >= 4, 'the new job')
    expect(runs[3]).toStrictEqual({ id: 'capped', attempt: 1 })
  })

  it('memory › a handler returning something else than an outcome counts as a throw', async () => {
    const errors: unknown[] = []
    const queue = track(memoryJobQueue({ backoffMs: 10, onError: (error) => errors.push(error) }))
    const { runs, handler } = recording((job) => (job.attempt === 1 ? (undefined as never) : { done: true }))
    queue.start(handler, { concurrency: 1 })
    await queue.enqueue({ id: 'odd' })
    await until(() => runs.length >= 2, 'the retry')
    expect(errors[0]).toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' })
  })

  it('memory › start and options are checked: a TypeError at once; start twice or after close throws; enqueue after close rejects', async () => {
    expect(() => memoryJobQueue({ maxRuns: 0 })).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => memoryJobQueue({ closeTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => memoryJobQueue({ onError: 'log' as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    const queue = track(memoryJobQueue())
    const handler = async () => ({ done: true }) as const
    expect(() => queue.start(handler, { concurrency: 0 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => queue.start(handler, { concurrency: 1.5 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => queue.start(handler, { concurrency: '2' as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => queue.start(handler, {} as never)).toThrow(expect.objectContaining({ code: 'ERR_MISSING_OPTION' }))
    expect(() => queue.start('handler' as never, { concurrency: 1 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    queue.start(handler, { concurrency: 1 })
    expect(() => queue.start(handler, { concurrency: 1 })).toThrow(/already started/)
    await queue.close()
    await expect(queue.enqueue({ id: 'late' })).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'enqueue' } })
    const closed = memoryJobQueue()
    await closed.close()
    expect(() => closed.start(handler, { concurrency: 1 })).toThrow(/closed/)
  })
})

// --- fs ---

describe('fs job queue', () => {
  const ready = (dir: string) => readdirSync(join(dir, 'ready'))
  const active = (dir: string) => readdirSync(join(dir, 'active'))

  it('fs › layout: ready/<notBefore, 15 digits>-<id>.json while waiting, active/<id>.json while running, nothing once done', async () => {
    const dir = join(root, 'layout')
    const queue = track(fsJobQueue({ dir, pollMs: 20, onError }))
    const before = Date.now()
    await queue.enqueue({ id: 'exp_1' })
    await queue.enqueue({ id: 'exp_2', delayMs: 60_000 })
    const names = ready(dir).sort()
    expect(names).toHaveLength(2)
    const [now, later] = names.map((name) => /^(\d{15})-(.+)\.json$/.exec(name)!)
    expect(now![2]).toBe('exp_1')
    expect(Number(now![1])).toBeGreaterThanOrEqual(before)
    expect(later![2]).toBe('exp_2')
    expect(Number(later![1])).toBeGreaterThanOrEqual(before + 60_000)
    expect(JSON.parse(readFileSync(join(dir, 'ready', names[0]!), 'utf8'))).toMatchObject({ id: 'exp_1', attempts: 0 })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const runs: QueuedJob[] = []
    queue.start(
      async (job) => {
        runs.push(job)
        await held
        return { done: true }
      },
      { concurrency: 1 },
    )
    await until(() => runs.length === 1, 'the run')
    expect(active(dir)).toEqual(['exp_1.json'])
    expect(ready(dir)).toEqual([names[1]])
    release()
    await until(() => active(dir).length === 0, 'the active file to go')
    expect(ready(dir)).toEqual([names[1]])
    expect(readdirSync(join(dir, 'tmp'))).toEqual([])
  })

  it('fs › { retryInMs } writes the job back to ready/ with the new time and attempts + 1; after maxRuns it goes to failed/', async () => {
    const dir = join(root, 'retry-layout')
    const queue = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 2, onError }))
    const { runs, handler } = recording((job) => (job.attempt === 1 ? { retryInMs: 60_000 } : { done: true }))
    queue.start(handler, { concurrency: 1 })
    const before = Date.now()
    await queue.enqueue({ id: 'later' })
    await until(() => runs.length === 1 && ready(dir).length === 1 && active(dir).length === 0, 'the retry to be written')
    const [name] = ready(dir)
    expect(Number(name!.slice(0, 15))).toBeGreaterThanOrEqual(before + 60_000)
    expect(JSON.parse(readFileSync(join(dir, 'ready', name!), 'utf8'))).toMatchObject({ id: 'later', attempts: 1 })
    await queue.close()

    const errors: unknown[] = []
    const capped = track(fsJobQueue({ dir: join(root, 'capped'), pollMs: 20, maxRuns: 2, onError: (error) => errors.push(error) }))
    const always = recording(() => ({ retryInMs: 0 }))
    capped.start(always.handler, { concurrency: 1 })
    await capped.enqueue({ id: 'stubborn' })
    await until(() => existsSync(join(root, 'capped', 'failed', 'stubborn.json')), 'failed/stubborn.json')
    expect(always.runs.map((run) => run.attempt)).toStrictEqual([1, 2])
    expect(JSON.parse(readFileSync(join(root, 'capped', 'failed', 'stubborn.json'), 'utf8'))).toMatchObject({ id: 'stubborn', attempts: 2, reason: expect.stringContaining('maxRuns') })
    expect(ready(join(root, 'capped'))).toEqual([])
    expect(errors).toStrictEqual([expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringContaining('job stubborn failed: gave up after 2 runs') })])
  })

  it('fs › start puts back what a dead process left in active/ (counting the cut-off run), and moves unreadable files to failed/', async () => {
    const dir = join(root, 'recover')
    for (const sub of ['ready', 'active']) mkdirSync(join(dir, sub), { recursive: true })
    writeFileSync(join(dir, 'active', 'left.json'), JSON.stringify({ id: 'left', attempts: 2, enqueuedAt: '2026-01-01T00:00:00.000Z' }))
    writeFileSync(join(dir, 'active', 'garbled.json'), 'not json')
    writeFileSync(join(dir, 'ready', '000000000000001-broken.json'), '{"id":"other"}')
    // A retry written back just before the crash: the active copy is stale.
    writeFileSync(join(dir, 'active', 'retried.json'), JSON.stringify({ id: 'retried', attempts: 0, enqueuedAt: '2026-01-01T00:00:00.000Z' }))
    writeFileSync(join(dir, 'ready', '000000000000002-retried.json'), JSON.stringify({ id: 'retried', attempts: 1, enqueuedAt: '2026-01-01T00:00:00.000Z' }))
    const queue = track(fsJobQueue({ dir, pollMs: 20, onError }))
    const { runs, handler } = recording()
    queue.start(handler, { concurrency: 2 })
    await until(() => runs.length >= 2, 'the recovered jobs')
    await sleep(100)
    expect(runs.sort((a, b) => a.id.localeCompare(b.id))).toStrictEqual([
      { id: 'left', attempt: 4 },
      { id: 'retried', attempt: 2 },
    ])
    expect(readdirSync(join(dir, 'failed')).sort()).toEqual(['broken.json', 'garbled.json'])
    expect(active(dir)).toEqual([])
  })

  it('fs › a process killed (SIGKILL) mid-run leaves the job in active/; the next start runs it again with attempt 2; bullmq is never loaded', async () => {
    const dir = join(root, 'killed')
    const producer = fsJobQueue({ dir, onError })
    await producer.enqueue({ id: 'crash1' })
    await producer.close()
    const { child, output, exited } = startHangingChild(['fs', dir])
    try {
      await until(() => output().includes('running crash1 1'), `the child to run the job (output: ${output()})`, 15_000)
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    expect(output()).toContain('bullmq loaded: false')
    expect(output()).toContain('running crash1 1 false')
    expect(active(dir)).toEqual(['crash1.json'])
    const queue = track(fsJobQueue({ dir, pollMs: 20, onError }))
    const { runs, handler } = recording()
    queue.start(handler, { concurrency: 1 })
    await until(() => runs.length >= 1, 'the run after the restart')
    expect(runs).toStrictEqual([{ id: 'crash1', attempt: 2 }])
  })

  it('fs › a directory removed under a running queue is made again; the queue goes on', async () => {
    const dir = join(root, 'removed')
    const queue = track(fsJobQueue({ dir, pollMs: 20, onError }))
    const { runs, handler } = recording()
    queue.start(handler, { concurrency: 1 })
    await queue.enqueue({ id: 'before' })
    await until(() => runs.length === 1, 'the first run')
    rmSync(dir, { recursive: true, force: true })
    await sleep(50)
    await queue.enqueue({ id: 'after' })
    await until(() => runs.length === 2, 'the run after the removal')
    expect(runs.map((run) => run.id)).toStrictEqual(['before', 'after'])
  })

  it('fs › rejects a missing or bad dir and bad options with a TypeError at once', () => {
    expect(() => fsJobQueue({} as never)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_MISSING_OPTION' }))
    expect(() => fsJobQueue({ dir: 42 as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => fsJobQueue({ dir: root, pollMs: 0 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => fsJobQueue({ dir: root, backoffMs: 1.5 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
  })
})

// --- BullMQ ---

describe('bullmq job queue', () => {
  it('bullmq › keys are <prefix>:<name>:*; the BullMQ job id is the id (#<id> for ids that read as integers); finished jobs are removed', async () => {
    const name = 'layout'
    const queue = track(bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, onError, ...FAST_BULLMQ }))
    await queue.enqueue({ id: 'exp_1', delayMs: 60_000 })
    await queue.enqueue({ id: '123' })
    await queue.enqueue({ id: '007' })
    expect(await admin.exists(`${bullPrefix}:${name}:exp_1`)).toBe(1)
    expect(await admin.exists(`${bullPrefix}:${name}:#123`)).toBe(1)
    expect(await admin.exists(`${bullPrefix}:${name}:007`)).toBe(1)
    expect(await admin.zscore(`${bullPrefix}:${name}:delayed`, 'exp_1')).not.toBeNull()
    expect(toBullmqJobId('123')).toBe('#123')
    expect(toBullmqJobId('-4')).toBe('#-4')
    expect(toBullmqJobId('1e5')).toBe('1e5')
    const { runs, handler } = recording()
    queue.start(handler, { concurrency: 2 })
    await until(() => runs.length >= 2, 'the two due jobs')
    await sleep(200)
    expect(runs.map((run) => run.id).sort()).toEqual(['007', '123'])
    expect(await admin.exists(`${bullPrefix}:${name}:#123`)).toBe(0)
    expect(await admin.exists(`${bullPrefix}:${name}:007`)).toBe(0)
    const keys = await admin.keys(`${redisBase}:*`)
    expect(keys.every((key) => key.startsWith(`${bullPrefix}:`))).toBe(true)
  })

  it('bullmq › maxRuns: a job asking for a retry, or throwing, on its last run fails and is removed; onError is told', async () => {
    const name = 'capped'
    const errors: Array<[unknown, QueuedJob | undefined]> = []
    const queue = track(bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, maxRuns: 3, backoffMs: 20, onError: (error, job) => errors.push([error, job]), ...FAST_BULLMQ }))
    const { runs, handler } = recording((job) => {
      if (job.id === 'thrower') throw new Error('boom')
      return { retryInMs: 10 }
    })
    queue.start(handler, { concurrency: 2 })
    await queue.enqueue({ id: 'retrier' })
    await queue.enqueue({ id: 'thrower' })
    await until(() => runs.length >= 6, '3 runs of each job')
    await sleep(300)
    expect(runs.filter((run) => run.id === 'retrier').map((run) => run.attempt)).toStrictEqual([1, 2, 3])
    expect(runs.filter((run) => run.id === 'thrower').map((run) => run.attempt)).toStrictEqual([1, 2, 3])
    expect(errors.filter(([error]) => String((error as Error).message).includes('gave up')).map(([, job]) => job?.id).sort()).toEqual(['retrier', 'thrower'])
    expect(await admin.exists(`${bullPrefix}:${name}:retrier`, `${bullPrefix}:${name}:thrower`)).toBe(0)
    // Removed: each id can be enqueued again.
    await queue.enqueue({ id: 'retrier' })
    await until(() => runs.length >= 7, 'the new job')
    expect(runs[6]).toStrictEqual({ id: 'retrier', attempt: 1 })
  })

  it('bullmq › a worker process killed (SIGKILL) mid-run: another instance runs the job again with attempt 2 once the lock expires', async () => {
    const name = 'killed'
    const producer = bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, onError })
    await producer.enqueue({ id: 'crash1' })
    await producer.close()
    const { child, output, exited } = startHangingChild(['bullmq', REDIS_URL, bullPrefix, name])
    try {
      await until(() => output().includes('running crash1 1'), `the child to run the job (output: ${output()})`, 15_000)
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    // The control of the fs child's check: here BullMQ was loaded.
    expect(output()).toContain('running crash1 1 true')
    const queue = track(bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, onError, ...FAST_BULLMQ }))
    const { runs, handler } = recording()
    const started = Date.now()
    queue.start(handler, { concurrency: 1 })
    await until(() => runs.length >= 1, 'the stalled job to run again')
    expect(runs).toStrictEqual([{ id: 'crash1', attempt: 2 }])
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('bullmq › a connection passed in is used and never closed; one without maxRetriesPerRequest: null is refused', async () => {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null })
    try {
      const queue = bullmqJobQueue({ connection, prefix: bullPrefix, name: 'given', onError, ...FAST_BULLMQ })
      const { runs, handler } = recording()
      queue.start(handler, { concurrency: 1 })
      await queue.enqueue({ id: 'given1' })
      await until(() => runs.length >= 1, 'the run')
      await queue.close()
      expect(connection.status).toBe('ready')
      expect(await connection.ping()).toBe('PONG')
    } finally {
      connection.disconnect()
    }
    const strict = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 3 })
    expect(() => bullmqJobQueue({ connection: strict })).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: expect.stringContaining('maxRetriesPerRequest') }))
    strict.disconnect()
  })

  it('bullmq › bad options throw a TypeError at once; while Redis is down enqueue rejects with ERR_STORAGE within seconds, errors are reported once and close() does not wait; enqueue after close rejects', async () => {
    expect(() => bullmqJobQueue({ name: 'a:b' })).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => bullmqJobQueue({ prefix: 'a b' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => bullmqJobQueue({ url: 6379 as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => bullmqJobQueue({ lockDurationMs: 10 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    const down = bullmqJobQueue({ url: 'redis://127.0.0.1:1', prefix: bullPrefix, name: 'down', onError: () => {} })
    const started = Date.now()
    try {
      await expect(down.enqueue({ id: 'lost' })).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'job-queue:bullmq', operation: 'enqueue' } })
      expect(Date.now() - started).toBeLessThan(6_000)
    } finally {
      await down.close()
    }
    // A worker started while Redis is down: its reconnection errors are reported once, and close() does not wait for Redis.
    const errors: unknown[] = []
    const idle = bullmqJobQueue({ url: 'redis://127.0.0.1:1', prefix: bullPrefix, name: 'down', onError: (error) => errors.push(error) })
    idle.start(async () => ({ done: true }), { concurrency: 1 })
    await until(() => errors.length > 0, 'the first connection error')
    await sleep(1_500)
    expect(errors.length, 'errors reported in 1.5 s of reconnecting').toBeLessThanOrEqual(3)
    expect(errors[0]).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'job-queue:bullmq' } })
    const closing = Date.now()
    await idle.close()
    expect(Date.now() - closing).toBeLessThan(2_000)
    const closed = bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name: 'closed', onError })
    await closed.close()
    await expect(closed.enqueue({ id: 'late' })).rejects.toMatchObject({ code: 'ERR_STORAGE', details: { operation: 'enqueue' } })
  })
})

// --- onGiveUp: a job the queue gives up on is announced, whatever path made it give up ---

/** A give-up hook recording its calls, and whether the queue still held the job then (fs: in active/). */
function givingUp(holds: (id: string) => boolean = () => true) {
  const calls: Array<{ job: QueuedJob; reason: string; held: boolean }> = []
  return { calls, onGiveUp: async (job: QueuedJob, reason: string) => void calls.push({ job, reason, held: holds(job.id) }) }
}

describe('job queues › onGiveUp', () => {
  it('memory › a job asking for a retry (or throwing) on its last run is announced once, with the reason; a done job never is', async () => {
    const queue = track(memoryJobQueue({ maxRuns: 2, backoffMs: 5, onError: () => {} }))
    const hook = givingUp()
    const { runs, handler } = recording((job) => {
      if (job.id === 'fine') return { done: true }
      if (job.id === 'thrower') throw new Error('boom')
      return { retryInMs: 5 }
    })
    queue.start(handler, { concurrency: 2, onGiveUp: hook.onGiveUp })
    for (const id of ['retrier', 'thrower', 'fine']) await queue.enqueue({ id })
    await until(() => hook.calls.length >= 2, 'two give-ups')
    await sleep(100)
    expect(hook.calls.map((call) => [call.job, call.reason]).sort()).toStrictEqual([
      [{ id: 'retrier', attempt: 2 }, 'gave up after 2 runs (maxRuns)'],
      [{ id: 'thrower', attempt: 2 }, 'gave up after 2 runs (maxRuns)'],
    ])
    expect(runs.filter((run) => run.id === 'fine')).toHaveLength(1)
  })

  it('memory › a hook that rejects is reported through onError and the job is still given up', async () => {
    const errors: unknown[] = []
    const queue = track(memoryJobQueue({ maxRuns: 1, onError: (error) => errors.push(error) }))
    const { runs, handler } = recording(() => ({ retryInMs: 0 }))
    queue.start(handler, { concurrency: 1, onGiveUp: async () => Promise.reject(new Error('job store down')) })
    await queue.enqueue({ id: 'j1' })
    await until(() => errors.some((error) => (error as Error).message === 'job store down'), 'the hook failure to be reported')
    await sleep(50)
    expect(runs).toHaveLength(1)
  })

  it('memory › onGiveUp that is not a function is a TypeError at start', () => {
    const queue = track(memoryJobQueue())
    expect(() => queue.start(async () => ({ done: true }), { concurrency: 1, onGiveUp: 'x' as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining('options.onGiveUp') }))
  })

  it('fs › runs used up: announced while the job is still in active/ (a crash then runs it again), then moved to failed/', async () => {
    const dir = join(root, 'give-up-runs')
    const queue = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 2, onError: () => {} }))
    const hook = givingUp((id) => readdirSync(join(dir, 'active')).includes(`${id}.json`))
    queue.start(recording(() => ({ retryInMs: 0 })).handler, { concurrency: 1, onGiveUp: hook.onGiveUp })
    await queue.enqueue({ id: 'stubborn' })
    await until(() => existsSync(join(dir, 'failed', 'stubborn.json')), 'failed/stubborn.json')
    expect(hook.calls).toStrictEqual([{ job: { id: 'stubborn', attempt: 2 }, reason: 'gave up after 2 runs (maxRuns)', held: true }])
  })

  it('fs › a job whose runs were all cut off by crashes is given up at the next start without running again, and announced', async () => {
    const dir = join(root, 'give-up-crashes')
    mkdirSync(join(dir, 'active'), { recursive: true })
    // Two runs started, the second cut off by a crash: after the restart it would be run 3.
    writeFileSync(join(dir, 'active', 'crashy.json'), JSON.stringify({ id: 'crashy', attempts: 1, enqueuedAt: new Date().toISOString() }))
    const queue = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 2, onError: () => {} }))
    const hook = givingUp()
    const { runs, handler } = recording()
    queue.start(handler, { concurrency: 1, onGiveUp: hook.onGiveUp })
    await until(() => existsSync(join(dir, 'failed', 'crashy.json')), 'failed/crashy.json')
    expect(runs).toStrictEqual([])
    expect(hook.calls).toStrictEqual([{ job: { id: 'crashy', attempt: 3 }, reason: 'gave up: 2 runs started, the last ones cut off (maxRuns)', held: true }])
    expect(JSON.parse(readFileSync(join(dir, 'failed', 'crashy.json'), 'utf8'))).toMatchObject({ id: 'crashy', reason: expect.stringContaining('cut off') })
  })

  it('fs › a give-up whose hook failed (its store was down) is announced again at the next start, until it resolves; then never again', async () => {
    const dir = join(root, 'give-up-again')
    const first = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 1, onError: () => {} }))
    let calls = 0
    first.start(recording(() => ({ retryInMs: 0 })).handler, { concurrency: 1, onGiveUp: async () => {
        calls += 1
        throw new Error('job store down')
      },
    })
    await first.enqueue({ id: 'unlucky' })
    await until(() => existsSync(join(dir, 'failed', 'unlucky.json')), 'failed/unlucky.json')
    await first.close()
    expect(calls).toBe(1)
    expect(JSON.parse(readFileSync(join(dir, 'failed', 'unlucky.json'), 'utf8'))).toMatchObject({ id: 'unlucky', announced: false })

    const hook = givingUp()
    const second = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 1, onError: () => {} }))
    const { runs, handler } = recording()
    second.start(handler, { concurrency: 1, onGiveUp: hook.onGiveUp })
    await until(() => hook.calls.length >= 1, 'the give-up to be announced again')
    await until(() => JSON.parse(readFileSync(join(dir, 'failed', 'unlucky.json'), 'utf8')).announced === true, 'announced: true')
    await second.close()
    expect(hook.calls.map((call) => [call.job, call.reason])).toStrictEqual([[{ id: 'unlucky', attempt: 1 }, 'gave up after 1 runs (maxRuns)']])
    expect(runs).toStrictEqual([])

    const third = track(fsJobQueue({ dir, pollMs: 20, maxRuns: 1, onError: () => {} }))
    third.start(handler, { concurrency: 1, onGiveUp: hook.onGiveUp })
    await sleep(200)
    expect(hook.calls).toHaveLength(1)
  })

  it('bullmq › runs used up (retry or throw on the last run) are announced once each', async () => {
    const name = 'give-up-runs'
    const queue = track(bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, maxRuns: 2, backoffMs: 20, onError: () => {}, ...FAST_BULLMQ }))
    const hook = givingUp()
    const { handler } = recording((job) => {
      if (job.id === 'thrower') throw new Error('boom')
      return { retryInMs: 10 }
    })
    queue.start(handler, { concurrency: 2, onGiveUp: hook.onGiveUp })
    await queue.enqueue({ id: 'retrier' })
    await queue.enqueue({ id: 'thrower' })
    await until(() => hook.calls.length >= 2, 'two give-ups')
    await sleep(300)
    expect(hook.calls.map((call) => [call.job, call.reason]).sort()).toStrictEqual([
      [{ id: 'retrier', attempt: 2 }, 'gave up after 2 runs (maxRuns)'],
      [{ id: 'thrower', attempt: 2 }, 'gave up after 2 runs (maxRuns)'],
    ])
  })

  it('bullmq › a job whose run was cut off (its worker gone) more often than maxRuns allows is failed by BullMQ and announced', async () => {
    const name = 'give-up-stalled'
    // The first worker hangs on the job and is closed without waiting: the run is cut off.
    const first = bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, maxRuns: 1, closeTimeoutMs: 0, onError: () => {}, ...FAST_BULLMQ })
    const hanging = recording(() => new Promise<JobOutcome>(() => {}))
    first.start(hanging.handler, { concurrency: 1 })
    await first.enqueue({ id: 'stalled1' })
    await until(() => hanging.runs.length === 1, 'the first run')
    await first.close()
    const queue = track(bullmqJobQueue({ url: REDIS_URL, prefix: bullPrefix, name, maxRuns: 1, onError: () => {}, ...FAST_BULLMQ }))
    const hook = givingUp()
    const second = recording()
    queue.start(second.handler, { concurrency: 1, onGiveUp: hook.onGiveUp })
    await until(() => hook.calls.length >= 1, 'the stalled job to be given up', 15_000)
    expect(second.runs).toStrictEqual([])
    expect(hook.calls).toStrictEqual([{ job: { id: 'stalled1', attempt: expect.any(Number) }, reason: expect.stringMatching(/^gave up: job (started|stalled) more than allowable limit$/), held: true }])
  }, 30_000)
})
