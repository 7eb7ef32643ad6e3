/**
 * @litho/testing/account-store: the conformance suite for account stores. Its own entry because
 * it registers vitest tests, so the image helpers and fixtures can be used without vitest.
 *
 * @module @litho/testing/account-store
 */
export { runAccountStoreConformance, type AccountStoreConformanceOptions } from './run-account-store-conformance.js'
