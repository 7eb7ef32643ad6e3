/**
 * The account store in process memory: the one unstorage implementation (`../unstorage/account-store.ts`) over the memory driver.
 *
 * @module memory/account-store
 */
import type { AccountStore } from '@litho/core/contracts'
import { memoryStore } from '../kit/store-base.js'
import { unstorageAccountStore } from '../unstorage/account-store.js'

/**
 * An account store in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const accounts = memoryAccountStore()
 * await accounts.createUser({ id: 'u_3Jx9Qm2L', email: 'ann@example.com', passwordHash, plan: 'free', createdAt: now, updatedAt: now })
 */
export function memoryAccountStore(): AccountStore {
  return memoryStore(unstorageAccountStore)
}
