/**
 * The retention index in process memory: the one unstorage implementation (`../unstorage/retention-index.ts`) over the memory driver.
 *
 * @module memory/retention-index
 */
import type { RetentionIndex } from '@litho/core/contracts'
import { memoryStore } from '../kit/store-base.js'
import { unstorageRetentionIndex } from '../unstorage/retention-index.js'

/**
 * A retention index in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty index.
 *
 * @example
 * const retention = memoryRetentionIndex()
 */
export function memoryRetentionIndex(): RetentionIndex {
  return memoryStore(unstorageRetentionIndex)
}
