/**
 * The job-queue conformance suite: proves that a `JobQueue` (`@litho/core/contracts`) keeps the
 * contract written in its doc comment: each job run once at a time, delays and retries honoured,
 * concurrency bounded, jobs kept across restarts (persistent) and runs cut off picked up again
 * (persistent, shared).
 *
 * @module job-queue/run-job-queue-conformance
 */
import type { JobQueue } from '@litho/core/contracts'
import { registerSuite, type SuiteCase } from '../_suite.js'
import { createJobQueueCaseContext, createSpacePrefix, jobQueueCases, type JobQueueCase, type JobQueueFactoryOptions } from './job-queue-cases.js'

/** Options of {@link runJobQueueConformance}. */
export interface JobQueueConformanceOptions {
  /** Used in the describe title: `job queue › <name>`. */
  name: string
  /**
   * Makes a queue. Every case asks for its own `space` (map it to a directory, a queue name…);
   * two queues on the same space must share their jobs when the queue declares `persistent` or
   * `shared`. Give the queue the `closeTimeoutMs` asked for, and in tests a short backoff for
   * handlers that throw (one case throws twice, and waits up to 20 s in all).
   */
  create: (options: JobQueueFactoryOptions) => JobQueue | Promise<JobQueue>
  /** The close timeout the factory is asked to give its queues: the crash cases wait for it. @default 300 */
  closeTimeoutMs?: number
  /**
   * How long a job left by one instance may take to run on another: a job enqueued before a
   * restart, and a run cut off by `close()` (after the restart for persistent queues). A queue
   * that finds cut-off runs by a lock expiring (BullMQ) needs about its lock duration plus two
   * stalled-check intervals. @default 10000
   */
  recoveryTimeoutMs?: number
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/** The suite's own context: the probe queue, and what each case's context is built from. */
interface SuiteContext {
  probe: JobQueue
}

/**
 * Registers the job-queue suite with vitest (call it at the top level of a test file). A probe
 * queue is made before the cases (never started; it tells the suite the queue's capabilities)
 * and closed after them; each case makes its queues on spaces of its own, and they are closed
 * after it, whatever happens. The suite does not remove what it leaves in the backend (files,
 * Redis keys): give the factory a directory or key prefix unique to the run and remove it
 * afterwards.
 *
 * Cases that test a capability (`persistent`, `shared`) are skipped unless the queue declares
 * it, and run when it does. A case skipped by name keeps its title and shows the reason.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runJobQueueConformance } from '@litho/testing/job-queue'
 * import { fsJobQueue } from '@litho/storage-adapters/job-queue'
 *
 * runJobQueueConformance({ name: 'fs', create: ({ space, closeTimeoutMs }) => fsJobQueue({ dir: join(root, space), closeTimeoutMs, backoffMs: 50 }) })
 */
export function runJobQueueConformance(options: JobQueueConformanceOptions): void {
  const { create, closeTimeoutMs = 300, recoveryTimeoutMs = 10_000 } = options
  const prefix = createSpacePrefix()
  const cases: Array<SuiteCase<SuiteContext> & { needs?: JobQueueCase['needs'] }> = jobQueueCases.map((queueCase, index) => ({
    title: queueCase.title,
    needs: queueCase.needs,
    async run({ probe }) {
      const { context, closeQueues } = createJobQueueCaseContext(probe, create, { prefix, index, closeTimeoutMs, recoveryTimeoutMs })
      try {
        await queueCase.run(context)
      } finally {
        await closeQueues()
      }
    },
  }))
  registerSuite({
    suite: 'job queue',
    subject: 'queue',
    name: options.name,
    cases,
    skip: options.skip,
    open: async () => ({ probe: await create({ space: `${prefix}-probe`, closeTimeoutMs }) }),
    close: ({ probe }) => probe.close(),
    unmet: (queueCase, { probe }) => (queueCase.needs && !probe.capabilities[queueCase.needs] ? `${probe.name} does not declare capabilities.${queueCase.needs}` : undefined),
  })
}
