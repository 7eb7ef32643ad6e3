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
import { runningCases } from './cases/running.js'
import { durabilityCases } from './cases/durability.js'
import { inputValidationCases } from './cases/input-validation.js'
import type { JobQueueCase } from './job-queue-kit.js'

export { SETTLE_MS, createJobQueueCaseContext, createSpacePrefix, type JobQueueCase, type JobQueueCaseContext, type JobQueueCaseRun, type JobQueueFactoryOptions } from './job-queue-kit.js'

/** Every case, in order; the titles are stable (skips name them). */
export const jobQueueCases: readonly JobQueueCase[] = [
  ...runningCases,
  ...durabilityCases,
  ...inputValidationCases,
]
