/**
 * The design store in process memory: the one unstorage implementation (`../unstorage/design-store.ts`) over the memory driver.
 *
 * @module memory/design-store
 */
import type { DesignStore } from '@litho/core/contracts'
import { memoryStore } from '../kit/store-base.js'
import { unstorageDesignStore } from '../unstorage/design-store.js'

/**
 * A design store in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const designs = memoryDesignStore()
 * await designs.create({ id: 'd_8f3k2m9x1q7w', ownerId: 'acct_1', name: 'Card', renderCode: 'rc_4Kq9xV2mTn8pLw3z', design: null, draft: {}, createdAt: now, updatedAt: now })
 */
export function memoryDesignStore(): DesignStore {
  return memoryStore(unstorageDesignStore)
}
