/**
 * The cases of the meter conformance suite, as data: a stable title, the capability a case
 * needs, and a function that throws when the meter breaks the contract. `runMeterConformance`
 * registers them with vitest; keeping them as data lets a test run one case directly (the
 * control in `test/meter-conformance.test.ts` proves the concurrency case catches a racy meter).
 *
 * @module meter/meter-cases
 */
import { countingCases } from './cases/counting.js'
import { independenceCases } from './cases/independence.js'
import { refundsCases } from './cases/refunds.js'
import { concurrencyCases } from './cases/concurrency.js'
import { usageHistoryCases } from './cases/usage-history.js'
import { sweepingCases } from './cases/sweeping.js'
import { persistenceCases } from './cases/persistence.js'
import { inputValidationCases } from './cases/input-validation.js'
import type { MeterCase } from './meter-kit.js'

export { createMeterCaseContext, createRunPrefix, type MeterCase, type MeterCaseContext } from './meter-kit.js'

/** Every case, in order; the titles are stable (skips name them). */
export const meterCases: readonly MeterCase[] = [
  ...countingCases,
  ...independenceCases,
  ...refundsCases,
  ...concurrencyCases,
  ...usageHistoryCases,
  ...sweepingCases,
  ...persistenceCases,
  ...inputValidationCases,
]
