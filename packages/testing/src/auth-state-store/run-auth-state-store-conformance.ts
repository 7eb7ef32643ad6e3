/**
 * The auth-state-store conformance suite: proves that an `AuthStateStore`
 * (`@litho/core/contracts`) keeps the contract written in its doc comment, above all that `swap`
 * and `add` are exactly-once under concurrency (single-use authorization codes and refresh-token
 * rotation depend on it).
 *
 * @module auth-state-store/run-auth-state-store-conformance
 */
import type { AuthStateStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { authStateStoreCases, createAuthStateStoreCaseContext } from './auth-state-store-cases.js'

/** Options of {@link runAuthStateStoreConformance}. */
export interface AuthStateStoreConformanceOptions {
  /** Used in the describe title: `auth state store › <name>`. */
  name: string
  /**
   * A store; calling it again must give a store over the SAME storage (needed for the
   * persistence and sharing cases).
   */
  create: () => AuthStateStore | Promise<AuthStateStore>
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the auth-state-store suite with vitest (call it at the top level of a test file). One
 * store is created before the cases and disposed after them; the cases that need more call
 * `create()`. Every key starts with a prefix unique to the run, so runs against a shared Redis
 * never collide; the suite deletes only some of what it writes (most values have no TTL), so give
 * each run its own key prefix and remove it afterwards if it matters.
 *
 * Cases that test a capability (`persistent`, `shared`) are skipped unless the store declares
 * it, and run when it does. A case skipped by name keeps its title and shows the reason. Two
 * cases wait for a one-second TTL to pass (up to 3 seconds each: the port allows expiry to be a
 * second late).
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runAuthStateStoreConformance } from '@litho/testing/auth-state-store'
 * import { redisAuthStateStore } from '@litho/storage-adapters/auth-state-store'
 *
 * runAuthStateStoreConformance({ name: 'redis', create: () => redisAuthStateStore({ url: 'redis://127.0.0.1:6379', base: 'test:auth' }) })
 */
export function runAuthStateStoreConformance(options: AuthStateStoreConformanceOptions): void {
  registerSuite({
    suite: 'auth state store',
    subject: 'store',
    name: options.name,
    cases: authStateStoreCases,
    skip: options.skip,
    open: async () => createAuthStateStoreCaseContext(await options.create(), options.create),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) =>
      storeCase.needs && !store.capabilities[storeCase.needs] ? `${store.name} does not declare capabilities.${storeCase.needs}` : undefined,
  })
}
