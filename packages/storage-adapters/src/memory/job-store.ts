/**
 * The job store in process memory: the one unstorage implementation (`../unstorage/job-store.ts`) over the memory driver.
 *
 * @module memory/job-store
 */
import type { JobStore } from '@litho/core/contracts'
import { memoryStore } from '../kit/store-base.js'
import { unstorageJobStore } from '../unstorage/job-store.js'

/**
 * A job store in process memory (the unstorage memory driver): for tests and development. Every
 * call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const jobs = memoryJobStore()
 */
export function memoryJobStore(): JobStore {
  return memoryStore(unstorageJobStore)
}
