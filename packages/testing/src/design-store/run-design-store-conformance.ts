/**
 * The design-store conformance suite: proves that a `DesignStore` (`@litho/core/contracts`)
 * keeps the contract written in its doc comment.
 *
 * @module design-store/run-design-store-conformance
 */
import type { DesignStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { createDesignStoreCaseContext, designStoreCases } from './design-store-cases.js'

/** Options of {@link runDesignStoreConformance}. */
export interface DesignStoreConformanceOptions {
  /** Used in the describe title: `design store › <name>`. */
  name: string
  /** A store; calling it again must give a store over the SAME storage (needed for the persistence case). */
  create: () => DesignStore | Promise<DesignStore>
  /**
   * Whether designs survive a new store over the same storage (files, Redis). The port has no
   * capabilities, so the caller declares it; the persistence case is skipped unless it is true.
   * @default false
   */
  persistent?: boolean
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the design-store suite with vitest (call it at the top level of a test file). One
 * store is created before the cases and disposed after them; the persistence case calls
 * `create()` for more. Every id and owner starts with a prefix unique to the run, so runs
 * against a shared Redis never collide; the suite does not delete what it created, so clean up
 * the backend's storage for that run yourself if it matters (e.g. give each run its own key
 * prefix and delete it afterwards).
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runDesignStoreConformance } from '@litho/testing/design-store'
 * import { redisDesignStore } from '@litho/storage-adapters/design-store'
 *
 * runDesignStoreConformance({ name: 'redis', persistent: true, create: () => redisDesignStore({ url: 'redis://127.0.0.1:6379', base: 'test:designs' }) })
 */
export function runDesignStoreConformance(options: DesignStoreConformanceOptions): void {
  registerSuite({
    suite: 'design store',
    subject: 'store',
    name: options.name,
    cases: designStoreCases,
    skip: options.skip,
    open: async () => createDesignStoreCaseContext(await options.create(), options.create),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) =>
      storeCase.needsPersistent && options.persistent !== true ? `${store.name} is not declared persistent (option persistent of runDesignStoreConformance)` : undefined,
  })
}
