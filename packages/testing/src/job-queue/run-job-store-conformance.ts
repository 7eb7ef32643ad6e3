/**
 * The job-store conformance suite: proves that a `JobStore` (`@litho/core/contracts`) keeps the
 * contract written in its doc comment.
 *
 * @module job-queue/run-job-store-conformance
 */
import type { JobStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { createJobStoreCaseContext, jobStoreCases } from './job-store-cases.js'

/** Options of {@link runJobStoreConformance}. */
export interface JobStoreConformanceOptions {
  /** Used in the describe title: `job store › <name>`. */
  name: string
  /** A store; calling it again must give a store over the SAME storage (needed for the persistence case). */
  create: () => JobStore | Promise<JobStore>
  /**
   * Whether records survive a new store over the same storage (files, Redis). The port has no
   * capabilities, so the caller declares it; the persistence case is skipped unless it is true.
   * @default false
   */
  persistent?: boolean
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the job-store suite with vitest (call it at the top level of a test file). One store
 * is created before the cases and disposed after them; the persistence case calls `create()` for
 * more. Every id and owner starts with a prefix unique to the run, so runs against a shared Redis
 * never collide; the suite does not delete what it created (the port has no delete), so give each
 * run its own key prefix and remove it afterwards if it matters.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runJobStoreConformance } from '@litho/testing/job-queue'
 * import { redisJobStore } from '@litho/storage-adapters/job-store'
 *
 * runJobStoreConformance({ name: 'redis', persistent: true, create: () => redisJobStore({ url: 'redis://127.0.0.1:6379', base: 'test:jobs' }) })
 */
export function runJobStoreConformance(options: JobStoreConformanceOptions): void {
  registerSuite({
    suite: 'job store',
    subject: 'store',
    name: options.name,
    cases: jobStoreCases,
    skip: options.skip,
    open: async () => createJobStoreCaseContext(await options.create(), options.create),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) => {
      if (storeCase.needsPersistent && options.persistent !== true) return `${store.name} is not declared persistent (option persistent of runJobStoreConformance)`
      if (storeCase.needsListing && typeof store.listByOwner !== 'function') return `${store.name} has no listByOwner (optional in the port)`
      return undefined
    },
  })
}
