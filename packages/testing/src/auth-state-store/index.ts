/**
 * @litho/testing/auth-state-store: the conformance suite for auth state stores. Its own entry
 * because it registers vitest tests, so the image helpers and fixtures can be used without vitest.
 *
 * @module @litho/testing/auth-state-store
 */
export { runAuthStateStoreConformance, type AuthStateStoreConformanceOptions } from './run-auth-state-store-conformance.js'
