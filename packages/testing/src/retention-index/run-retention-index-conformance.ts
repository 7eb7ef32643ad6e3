/**
 * The retention-index conformance suite: proves that a `RetentionIndex` (`@litho/core/contracts`)
 * keeps the contract written in its doc comment.
 *
 * @module retention-index/run-retention-index-conformance
 */
import type { RetentionIndex } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { createRetentionIndexCaseContext, retentionIndexCases } from './retention-index-cases.js'

/** Options of {@link runRetentionIndexConformance}. */
export interface RetentionIndexConformanceOptions {
  /** Used in the describe title: `retention index › <name>`. */
  name: string
  /** An index; calling it again must give an index over the SAME storage (the persistence case). */
  create: () => RetentionIndex | Promise<RetentionIndex>
  /** Whether records survive a new index over the same storage (files, Redis). @default false */
  persistent?: boolean
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the retention-index suite with vitest (call it at the top level of a test file). One
 * index is created before the cases and disposed after them. Keys start with a prefix unique to
 * the run, but `list` walks the whole index: give each run its own storage or key prefix.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runRetentionIndexConformance } from '@litho/testing/retention-index'
 * import { redisRetentionIndex } from '@litho/storage-adapters/retention-index'
 *
 * runRetentionIndexConformance({ name: 'redis', persistent: true, create: () => redisRetentionIndex({ url: 'redis://127.0.0.1:6379', base: 'test:retention' }) })
 */
export function runRetentionIndexConformance(options: RetentionIndexConformanceOptions): void {
  registerSuite({
    suite: 'retention index',
    subject: 'index',
    name: options.name,
    cases: retentionIndexCases,
    skip: options.skip,
    open: async () => createRetentionIndexCaseContext(await options.create(), options.create),
    close: ({ index }) => index.dispose?.(),
    unmet: (indexCase, { index }) =>
      indexCase.needsPersistent && options.persistent !== true ? `${index.name} is not declared persistent (option persistent of runRetentionIndexConformance)` : undefined,
  })
}
