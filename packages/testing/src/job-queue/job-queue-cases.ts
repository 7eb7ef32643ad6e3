/**
 * The cases of the job-queue conformance suite, as data: a stable title, the capability a case
 * needs, and a function that throws when the queue breaks the contract.
 * `runJobQueueConformance` registers them with vitest; keeping them as data lets a test run one
 * case directly (a control proves the cases catch a queue that runs a job twice or early).
 *
 * How the cases stay honest:
 * - Each case works in its own space (a directory, a queue name: see
 *   {@link JobQueueCaseContext.queue}), so nothing one case leaves behind can run in another.
 * - "Exactly once" is checked by recording every run, waiting for the expected ones, and then
 *   waiting {@link SETTLE_MS} more for any extra run before counting.
 * - A crash is a run cut off by `close()`: the handler never returns, `close()` gives up on it
 *   after the short `closeTimeoutMs` the suite asks the factory for, and the job must then run
 *   again on another instance over the same backend, with the next attempt number. When the
 *   hung handler is finally let go (its late outcome must change nothing) the suite checks that
 *   no extra run follows. Killing a process outright is left to the adapters' own tests.
 *
 * @module job-queue/job-queue-cases
 */
import type { JobOutcome, JobQueue, QueuedJob } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, INVALID_IDS, type InvalidCode } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** How long the suite waits after the expected runs for an extra one (a duplicate, a late retry). */
export const SETTLE_MS = 200
/** How long the suite waits for a run it expects (a job due now, a retry, a delayed job). */
const RUN_TIMEOUT_MS = 10_000

/** What the factory gets for each queue it makes. */
export interface JobQueueFactoryOptions {
  /**
   * Names the backend of the queue: `[A-Za-z0-9_-]`, at most 48 characters, fresh for each
   * case. Map it to a directory, a queue name, a key prefix. Two queues made with the same
   * space must share their jobs when the queue declares `persistent` or `shared`.
   */
  space: string
  /** Give the queue this close timeout: the crash cases cut a run off with it. */
  closeTimeoutMs: number
}

/** What a case gets. */
export interface JobQueueCaseContext {
  /** The queue made for the suite (never started; closed after the last case): its name and capabilities. */
  probe: JobQueue
  /**
   * A queue on the space of `label` in this case (the same label gives another instance over
   * the same backend). The case's queues are closed after it, whatever happens.
   */
  queue: (label: string) => Promise<JobQueue>
  /** The close timeout given to the factory. */
  closeTimeoutMs: number
  /** How long a job left by one instance (waiting, or cut off) may take to run on another. */
  recoveryTimeoutMs: number
}

/** One case of the suite. */
export interface JobQueueCase {
  /** Stable title, `job queue › <behaviour>`; also the name to skip it by. */
  title: string
  /** The capability the case tests; it is skipped when the queue does not declare it. */
  needs?: 'persistent' | 'shared'
  run: (context: JobQueueCaseContext) => Promise<void>
}

/** The context, and what closes a case's queues. */
export interface JobQueueCaseRun {
  context: JobQueueCaseContext
  /** Closes every queue the case made (a queue it closed itself is closed once). */
  closeQueues: () => Promise<void>
}

/** Builds a {@link JobQueueCaseContext} for one case; `index` tells cases apart. */
export function createJobQueueCaseContext(
  probe: JobQueue,
  create: (options: JobQueueFactoryOptions) => JobQueue | Promise<JobQueue>,
  options: { prefix: string; index: number; closeTimeoutMs: number; recoveryTimeoutMs: number },
): JobQueueCaseRun {
  const made: JobQueue[] = []
  const context: JobQueueCaseContext = {
    probe,
    closeTimeoutMs: options.closeTimeoutMs,
    recoveryTimeoutMs: options.recoveryTimeoutMs,
    async queue(label) {
      const queue = await create({ space: `${options.prefix}-c${options.index}-${label}`.slice(0, 48), closeTimeoutMs: options.closeTimeoutMs })
      made.push(queue)
      return queue
    },
  }
  return {
    context,
    closeQueues: async () => {
      const results = await Promise.allSettled(made.map((queue) => queue.close()))
      const failed = results.find((result) => result.status === 'rejected')
      if (failed) throw (failed as PromiseRejectedResult).reason
    },
  }
}

/** A prefix for the spaces of one suite run. */
export const createSpacePrefix = (): string => createRunPrefix()

// --- helpers of the cases ---

/** One run seen by a handler. */
interface Run extends QueuedJob {
  /** Which instance ran it (the label the case gave the handler). */
  on: string
  /** Date.now() when the handler was called, and when it returned. */
  at: number
  returnedAt?: number
}

/** Records every run of every handler it makes. */
function recorder() {
  const runs: Run[] = []
  return {
    runs,
    /** A handler recording each run on `on`, then doing `behaviour` (default: done). */
    handler(on: string, behaviour: (job: QueuedJob, run: Run) => Promise<JobOutcome> | JobOutcome = () => ({ done: true })) {
      return async (job: QueuedJob): Promise<JobOutcome> => {
        const run: Run = { id: job.id, attempt: job.attempt, on, at: Date.now() }
        runs.push(run)
        const outcome = await behaviour(job, run)
        run.returnedAt = Date.now()
        return outcome
      }
    },
    of: (id: string) => runs.filter((run) => run.id === id),
  }
}

/** Waits until `condition()` holds; fails with `message` after `timeoutMs`. */
async function until(condition: () => boolean, message: () => string, timeoutMs = RUN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms: ${message()}`)
    await sleep(10)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A promise and its resolve, to hold a handler until the case lets it go. */
function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** `{ id: count }` of the runs, to compare with what each job should have had. */
function counts(runs: readonly Run[]): Record<string, number> {
  const result: Record<string, number> = {}
  for (const run of runs) result[run.id] = (result[run.id] ?? 0) + 1
  return result
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, index) => `${prefix}${index}`)
const once = (list: readonly string[]) => Object.fromEntries(list.map((id) => [id, 1]))

/** Every case, in the order they run. */
export const jobQueueCases: readonly JobQueueCase[] = [
  // --- running ---
  {
    title: 'job queue › an enqueued job is handed to the handler once, as { id, attempt: 1 }',
    async run({ queue }) {
      const q = await queue('once')
      const seen: unknown[] = []
      const record = recorder()
      q.start(record.handler('a', (job) => (seen.push({ ...job }), { done: true })), { concurrency: 1 })
      await q.enqueue({ id: 'job1' })
      await until(() => record.runs.length >= 1, () => 'the job never ran')
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt }) => ({ id, attempt }))).toStrictEqual([{ id: 'job1', attempt: 1 }])
      expect(seen).toStrictEqual([{ id: 'job1', attempt: 1 }])
    },
  },
  {
    title: 'job queue › jobs enqueued before start run once start is called',
    async run({ queue }) {
      const q = await queue('before-start')
      const record = recorder()
      const list = ids('early', 3)
      for (const id of list) await q.enqueue({ id })
      await sleep(50)
      q.start(record.handler('a'), { concurrency: 2 })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 jobs ran`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },
  {
    title: 'job queue › delayMs: the job runs no sooner, and does not hold back a job due earlier',
    async run({ queue }) {
      const q = await queue('delay')
      const record = recorder()
      q.start(record.handler('a'), { concurrency: 1 })
      const before = Date.now()
      await q.enqueue({ id: 'late', delayMs: 400 })
      await q.enqueue({ id: 'now' })
      await until(() => record.runs.length >= 2, () => `${record.runs.map((r) => r.id).join(', ') || 'nothing'} ran`)
      const [first, second] = record.runs
      expect(first?.id, 'the job due now runs first').toBe('now')
      expect(second?.id).toBe('late')
      expect(second!.at - before, 'ms from enqueue to the delayed run').toBeGreaterThanOrEqual(400)
      await sleep(SETTLE_MS)
      expect(record.runs).toHaveLength(2)
    },
  },
  {
    title: 'job queue › { retryInMs } runs the job again, no sooner, with attempt + 1, until { done: true }',
    async run({ queue }) {
      const q = await queue('retry')
      const record = recorder()
      q.start(
        record.handler('a', (job) => (job.attempt < 3 ? { retryInMs: 200 } : { done: true })),
        { concurrency: 2 },
      )
      await q.enqueue({ id: 'retried' })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 runs`)
      await sleep(SETTLE_MS)
      expect(record.runs.map((run) => run.attempt)).toStrictEqual([1, 2, 3])
      for (const [index, run] of record.runs.slice(1).entries()) {
        const previous = record.runs[index]!
        expect(run.at - previous.returnedAt!, `ms between run ${index + 1} returning and run ${index + 2}`).toBeGreaterThanOrEqual(200)
      }
    },
  },
  {
    title: 'job queue › a handler that throws is run again with attempt + 1',
    async run({ queue }) {
      const q = await queue('throws')
      const record = recorder()
      q.start(
        record.handler('a', (job) => {
          if (job.attempt < 3) throw new Error(`failure ${job.attempt} (expected by the job-queue suite)`)
          return { done: true }
        }),
        { concurrency: 1 },
      )
      await q.enqueue({ id: 'thrower' })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 runs`, 20_000)
      await sleep(SETTLE_MS)
      expect(record.runs.map((run) => run.attempt)).toStrictEqual([1, 2, 3])
    },
  },
  {
    title: 'job queue › concurrency: never more than N runs at once, and N are used',
    async run({ queue }) {
      const q = await queue('concurrency')
      const list = ids('c', 12)
      for (const id of list) await q.enqueue({ id })
      let running = 0
      let most = 0
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          running += 1
          most = Math.max(most, running)
          await sleep(60)
          running -= 1
          return { done: true }
        }),
        { concurrency: 3 },
      )
      await until(() => record.runs.length >= 12 && running === 0, () => `${record.runs.length} of 12 runs`)
      expect(most, 'most runs at once').toBe(3)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },
  {
    title: 'job queue › 50 jobs enqueued at once: each runs exactly once, with attempt 1',
    async run({ queue }) {
      const q = await queue('fifty')
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          await sleep(5)
          return { done: true }
        }),
        { concurrency: 5 },
      )
      const list = ids('j', 50)
      await Promise.all(list.map((id) => q.enqueue({ id })))
      await until(() => record.runs.length >= 50, () => `${record.runs.length} of 50 runs`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
      expect(record.runs.every((run) => run.attempt === 1)).toBe(true)
    },
  },
  {
    title: 'job queue › enqueueing an id already waiting or running adds no second job',
    async run({ queue }) {
      const q = await queue('duplicate')
      await q.enqueue({ id: 'dup' })
      await q.enqueue({ id: 'dup' })
      await Promise.all([q.enqueue({ id: 'dup' }), q.enqueue({ id: 'dup' })])
      const hold = gate()
      const started = gate()
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          started.open()
          await hold.promise
          return { done: true }
        }),
        { concurrency: 2 },
      )
      await started.promise
      // While it runs.
      await q.enqueue({ id: 'dup' })
      await sleep(SETTLE_MS)
      hold.open()
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual({ dup: 1 })
    },
  },
  {
    title: 'job queue › close() waits for runs in flight; a run that finished is not run again',
    async run({ probe, queue, closeTimeoutMs }) {
      const q = await queue('graceful')
      const record = recorder()
      const started = gate()
      let finished = false
      const runMs = Math.min(300, Math.max(50, closeTimeoutMs / 2))
      q.start(
        record.handler('a', async () => {
          started.open()
          await sleep(runMs)
          finished = true
          return { done: true }
        }),
        { concurrency: 1 },
      )
      await q.enqueue({ id: 'graceful' })
      await started.promise
      await q.close()
      expect(finished, 'the run had finished when close() resolved').toBe(true)
      if (probe.capabilities.persistent || probe.capabilities.shared) {
        const again = await queue('graceful')
        again.start(record.handler('b'), { concurrency: 1 })
        await sleep(SETTLE_MS * 2)
      }
      expect(record.runs.map(({ id, on }) => ({ id, on }))).toStrictEqual([{ id: 'graceful', on: 'a' }])
    },
  },

  {
    title: 'job queue › a job that still asks for a retry when the queue gives up is announced to onGiveUp once, with its last attempt, and never run again',
    async run({ queue }) {
      const q = await queue('give-up')
      const record = recorder()
      const announced: Array<{ job: QueuedJob; reason: string }> = []
      q.start(record.handler('a', () => ({ retryInMs: 0 })), {
        concurrency: 1,
        onGiveUp: async (job, reason) => void announced.push({ job: { ...job }, reason }),
      })
      await q.enqueue({ id: 'stubborn' })
      await until(() => announced.length >= 1, () => `onGiveUp was never called (${record.runs.length} runs so far)`)
      await sleep(SETTLE_MS)
      expect(announced).toHaveLength(1)
      const runs = record.of('stubborn')
      expect(announced[0]!.job).toStrictEqual({ id: 'stubborn', attempt: runs.at(-1)!.attempt })
      expect(typeof announced[0]!.reason === 'string' && announced[0]!.reason.length > 0, 'the reason is a sentence').toBe(true)
      expect(runs.map((run) => run.attempt)).toStrictEqual(runs.map((_, index) => index + 1))
    },
  },

  // --- durability ---
  {
    title: 'job queue › durable: jobs enqueued on a queue closed without starting run on a new instance over the same backend',
    needs: 'persistent',
    async run({ queue, recoveryTimeoutMs }) {
      const first = await queue('durable')
      await first.enqueue({ id: 'kept' })
      await first.enqueue({ id: 'kept-delayed', delayMs: 300 })
      await first.close()
      const record = recorder()
      const second = await queue('durable')
      second.start(record.handler('b'), { concurrency: 2 })
      await until(() => record.runs.length >= 2, () => `${record.runs.length} of 2 jobs ran after the restart`, recoveryTimeoutMs)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual({ kept: 1, 'kept-delayed': 1 })
      expect(record.runs.every((run) => run.attempt === 1)).toBe(true)
    },
  },
  {
    title: 'job queue › crash: a run cut off by close() runs again on a new instance after a restart, with attempt 2',
    needs: 'persistent',
    async run({ queue, closeTimeoutMs, recoveryTimeoutMs }) {
      const record = recorder()
      const hung = gate<JobOutcome>()
      const first = await queue('restart')
      first.start(
        record.handler('a', () => hung.promise),
        { concurrency: 1 },
      )
      await first.enqueue({ id: 'cut' })
      await until(() => record.runs.length >= 1, () => 'the job never ran on the first instance')
      await expectCloseWithin(first, closeTimeoutMs)
      const second = await queue('restart')
      second.start(record.handler('b'), { concurrency: 1 })
      await until(() => record.runs.some((run) => run.on === 'b'), () => 'the cut-off run never ran again', recoveryTimeoutMs)
      // The cut-off run finishing late changes nothing.
      hung.open({ done: true })
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt, on }) => ({ id, attempt, on }))).toStrictEqual([
        { id: 'cut', attempt: 1, on: 'a' },
        { id: 'cut', attempt: 2, on: 'b' },
      ])
    },
  },
  {
    title: 'job queue › crash: a run cut off on one instance runs again on another sharing the backend, with attempt 2',
    needs: 'shared',
    async run({ queue, closeTimeoutMs, recoveryTimeoutMs }) {
      const record = recorder()
      const hung = gate<JobOutcome>()
      const first = await queue('shared-crash')
      first.start(
        record.handler('a', () => hung.promise),
        { concurrency: 1 },
      )
      await first.enqueue({ id: 'cut' })
      await until(() => record.runs.length >= 1, () => 'the job never ran on the first instance')
      const second = await queue('shared-crash')
      second.start(record.handler('b'), { concurrency: 1 })
      await expectCloseWithin(first, closeTimeoutMs)
      await until(() => record.runs.some((run) => run.on === 'b'), () => 'the cut-off run never ran on the other instance', recoveryTimeoutMs)
      hung.open({ done: true })
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt, on }) => ({ id, attempt, on }))).toStrictEqual([
        { id: 'cut', attempt: 1, on: 'a' },
        { id: 'cut', attempt: 2, on: 'b' },
      ])
    },
  },
  {
    title: 'job queue › shared: two instances on one backend run 40 jobs, each exactly once in total',
    needs: 'shared',
    async run({ queue }) {
      const record = recorder()
      const [a, b] = [await queue('shared'), await queue('shared')]
      const work = async () => {
        await sleep(10)
        return { done: true } as const
      }
      a.start(record.handler('a', work), { concurrency: 2 })
      b.start(record.handler('b', work), { concurrency: 2 })
      const list = ids('s', 40)
      await Promise.all(list.map((id, index) => (index % 2 ? b : a).enqueue({ id })))
      await until(() => record.runs.length >= 40, () => `${record.runs.length} of 40 runs`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },

  // --- input validation ---
  {
    title: 'job queue › enqueue rejects an invalid id or delayMs with a TypeError',
    async run({ queue }) {
      const q = await queue('invalid')
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of INVALID_IDS) cases.push([`id ${label}`, () => q.enqueue({ id: value as string }), code])
      for (const [label, value, code] of [
        ['-1', -1, 'ERR_INVALID_ARG_VALUE'],
        ['1.5', 1.5, 'ERR_INVALID_ARG_VALUE'],
        ['NaN', Number.NaN, 'ERR_INVALID_ARG_VALUE'],
        ['Infinity', Number.POSITIVE_INFINITY, 'ERR_INVALID_ARG_VALUE'],
        ["'10'", '10', 'ERR_INVALID_ARG_TYPE'],
      ] as const) {
        cases.push([`delayMs ${label}`, () => q.enqueue({ id: 'valid', delayMs: value as number }), code])
      }
      cases.push(['job null', () => q.enqueue(null as never), 'ERR_INVALID_ARG_TYPE'])
      await expectInvalid(cases)
      // Nothing was added: a handler started now sees no job.
      const record = recorder()
      q.start(record.handler('a'), { concurrency: 1 })
      await sleep(SETTLE_MS)
      expect(record.runs).toStrictEqual([])
    },
  },
]

// --- internal helpers ---

/** Closes a queue whose handler never returns: close() must give up after its timeout. */
async function expectCloseWithin(queue: JobQueue, closeTimeoutMs: number): Promise<void> {
  const started = Date.now()
  await queue.close()
  // The timeout, plus time for the adapter to let go of its connections.
  expect(Date.now() - started, 'ms close() took with a run that never ends').toBeLessThan(closeTimeoutMs + 5_000)
}
