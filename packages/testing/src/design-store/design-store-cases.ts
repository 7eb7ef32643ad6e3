/**
 * The cases of the design-store conformance suite, as data: a stable title, whether a case
 * needs a persistent store, and a function that throws when the store breaks the contract.
 * `runDesignStoreConformance` registers them with vitest; keeping them as data lets a test run
 * one case directly.
 *
 * @module design-store/design-store-cases
 */
import { createAndReadCases } from './cases/create-and-read.js'
import { conflictsCases } from './cases/conflicts.js'
import { updateCases } from './cases/update.js'
import { deleteCases } from './cases/delete.js'
import { listsCases } from './cases/lists.js'
import { persistenceCases } from './cases/persistence.js'
import { inputValidationCases } from './cases/input-validation.js'
import type { DesignStoreCase } from './design-store-kit.js'

export { createDesignStoreCaseContext, summary, type DesignStoreCase, type DesignStoreCaseContext } from './design-store-kit.js'

/** Every case, in order; the titles are stable (skips name them). */
export const designStoreCases: readonly DesignStoreCase[] = [
  ...createAndReadCases,
  ...conflictsCases,
  ...updateCases,
  ...deleteCases,
  ...listsCases,
  ...persistenceCases,
  ...inputValidationCases,
]
