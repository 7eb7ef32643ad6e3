/**
 * The context, helpers and types the job queue cases share (the cases themselves are in
 * `./cases/`, one file per topic; `./job-queue-cases.ts` lists them in order).
 *
 * @module job-queue/job-queue-kit
 */
import type { JobOutcome, JobQueue, QueuedJob } from '@litho/core/contracts'
import { expect } from 'vitest'
import { createRunPrefix } from '../_suite.js'
/** How long the suite waits after the expected runs for an extra one (a duplicate, a late retry). */
export const SETTLE_MS = 200
/** How long the suite waits for a run it expects (a job due now, a retry, a delayed job). */
export const RUN_TIMEOUT_MS = 10_000

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
export function recorder() {
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
export async function until(condition: () => boolean, message: () => string, timeoutMs = RUN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms: ${message()}`)
    await sleep(10)
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A promise and its resolve, to hold a handler until the case lets it go. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** `{ id: count }` of the runs, to compare with what each job should have had. */
export function counts(runs: readonly Run[]): Record<string, number> {
  const result: Record<string, number> = {}
  for (const run of runs) result[run.id] = (result[run.id] ?? 0) + 1
  return result
}

export const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, index) => `${prefix}${index}`)
export const once = (list: readonly string[]) => Object.fromEntries(list.map((id) => [id, 1]))

/** Every case, in the order they run. */


// --- internal helpers ---

/** Closes a queue whose handler never returns: close() must give up after its timeout. */
export async function expectCloseWithin(queue: JobQueue, closeTimeoutMs: number): Promise<void> {
  const started = Date.now()
  await queue.close()
  // The timeout, plus time for the adapter to let go of its connections.
  expect(Date.now() - started, 'ms close() took with a run that never ends').toBeLessThan(closeTimeoutMs + 5_000)
}
