/**
 * The auth state store in process memory: the unstorage implementation over the memory driver.
 *
 * @module memory/auth-state-store
 */
import type { AuthStateStore } from '@litho/core/contracts'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { DEFAULT_BASE } from '../kit/auth-state.js'
import { createLock } from '../kit/locks.js'
import { unstorageStore } from '../unstorage/auth-state-store.js'

/**
 * An auth state store in process memory: for tests and development. Every call gives a new,
 * empty store; nothing survives the process, and `swap`/`add` are atomic within it.
 * Capabilities `{ persistent: false, shared: false }`.
 *
 * @example
 * const state = memoryAuthStateStore()
 * await state.add('client:c1', { redirectUris: ['https://app.example.com/cb'] }) // true
 */
export function memoryAuthStateStore(): AuthStateStore {
  const storage = createStorage({ driver: memoryDriver() })
  return unstorageStore({ storage, base: DEFAULT_BASE, withLock: createLock(), name: 'memory', capabilities: { persistent: false, shared: false }, ownsStorage: true })
}
