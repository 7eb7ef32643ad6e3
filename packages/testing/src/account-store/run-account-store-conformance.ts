/**
 * The account-store conformance suite: proves that an `AccountStore` (`@litho/core/contracts`)
 * keeps the contract written in its doc comment.
 *
 * @module account-store/run-account-store-conformance
 */
import type { AccountStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { accountStoreCases, createAccountStoreCaseContext } from './account-store-cases.js'

/** Options of {@link runAccountStoreConformance}. */
export interface AccountStoreConformanceOptions {
  /** Used in the describe title: `account store › <name>`. */
  name: string
  /** A store; calling it again must give a store over the SAME storage (needed for the persistence case). */
  create: () => AccountStore | Promise<AccountStore>
  /**
   * Whether users and keys survive a new store over the same storage (files, Redis). The port has no
   * capabilities, so the caller declares it; the persistence case is skipped unless it is true.
   * @default false
   */
  persistent?: boolean
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the account-store suite with vitest (call it at the top level of a test file). One
 * store is created before the cases and disposed after them; the persistence case calls
 * `create()` for more. Every id and email starts with a prefix unique to the run, so runs
 * against a shared Redis never collide; the suite does not delete what it created, so clean up
 * the backend's storage for that run yourself if it matters (e.g. give each run its own key
 * prefix and delete it afterwards).
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runAccountStoreConformance } from '@litho/testing/account-store'
 * import { redisAccountStore } from '@litho/storage-adapters/account-store'
 *
 * runAccountStoreConformance({ name: 'redis', persistent: true, create: () => redisAccountStore({ url: 'redis://127.0.0.1:6379', base: 'test:accounts' }) })
 */
export function runAccountStoreConformance(options: AccountStoreConformanceOptions): void {
  registerSuite({
    suite: 'account store',
    subject: 'store',
    name: options.name,
    cases: accountStoreCases,
    skip: options.skip,
    open: async () => createAccountStoreCaseContext(await options.create(), options.create),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) =>
      storeCase.needsPersistent && options.persistent !== true ? `${store.name} is not declared persistent (option persistent of runAccountStoreConformance)` : undefined,
  })
}
