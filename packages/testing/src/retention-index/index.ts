/**
 * @litho/testing/retention-index: the conformance suite for retention indexes
 * (`runRetentionIndexConformance`). Its own entry because it registers vitest tests.
 *
 * @module @litho/testing/retention-index
 */
export { runRetentionIndexConformance, type RetentionIndexConformanceOptions } from './run-retention-index-conformance.js'
