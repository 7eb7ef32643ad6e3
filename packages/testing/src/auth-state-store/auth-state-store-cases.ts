/**
 * The cases of the auth-state-store conformance suite, as data: a stable title, the capability
 * a case needs, and a function that throws when the store breaks the contract.
 * `runAuthStateStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly (a control can prove the concurrency cases catch a read-then-write swap).
 *
 * @module auth-state-store/auth-state-store-cases
 */
import { readsAndWritesCases } from './cases/reads-and-writes.js'
import { expiryCases } from './cases/expiry.js'
import { swapAndAddCases } from './cases/swap-and-add.js'
import { concurrencyCases } from './cases/concurrency.js'
import { persistenceCases } from './cases/persistence.js'
import { inputValidationCases } from './cases/input-validation.js'
import type { AuthStateStoreCase } from './auth-state-store-kit.js'

export { createAuthStateStoreCaseContext, type AuthStateStoreCase, type AuthStateStoreCaseContext } from './auth-state-store-kit.js'

/** Every case, in order; the titles are stable (skips name them). */
export const authStateStoreCases: readonly AuthStateStoreCase[] = [
  ...readsAndWritesCases,
  ...expiryCases,
  ...swapAndAddCases,
  ...concurrencyCases,
  ...persistenceCases,
  ...inputValidationCases,
]
