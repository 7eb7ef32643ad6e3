/**
 * The cases of the account-store conformance suite, as data: a stable title, whether a case
 * needs a persistent store, and a function that throws when the store breaks the contract.
 * `runAccountStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly.
 *
 * @module account-store/account-store-cases
 */
import { usersCases } from './cases/users.js'
import { userListCases } from './cases/user-list.js'
import { keysCases } from './cases/keys.js'
import { linkSaltCases } from './cases/link-salt.js'
import { persistenceCases } from './cases/persistence.js'
import { inputValidationCases } from './cases/input-validation.js'
import type { AccountStoreCase } from './account-store-kit.js'

export { createAccountStoreCaseContext, hashOf, type AccountStoreCase, type AccountStoreCaseContext } from './account-store-kit.js'

/** Every case, in order; the titles are stable (skips name them). */
export const accountStoreCases: readonly AccountStoreCase[] = [
  ...usersCases,
  ...userListCases,
  ...keysCases,
  ...linkSaltCases,
  ...persistenceCases,
  ...inputValidationCases,
]
