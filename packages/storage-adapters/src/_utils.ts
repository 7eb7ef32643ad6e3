/**
 * Helpers shared by the backends. Internal: not exported.
 *
 * @module _utils
 */
import { LithoError } from '@litho/core/errors'

/**
 * An error of a meter's backend: unreachable, or holding data the meter cannot read. Meters
 * fail closed, so every such failure rejects with a LithoError `ERR_STORAGE` (the original
 * error is `cause`; `details` has `adapter` and `operation`), which a caller can map to
 * "try again later" by its code.
 */
export function createMeterError(adapter: string, operation: string, message: string, cause?: unknown): LithoError {
  // The message never contains credentials: the cause's message is the client's own.
  return new LithoError('ERR_STORAGE', `[meter:${adapter}] ${operation}: ${message}`, { ...(cause === undefined ? {} : { cause }), details: { adapter, operation } })
}

/** Runs `task`; any error it throws is wrapped with {@link createMeterError} unless it already is one. */
export async function wrapBackendErrors<T>(adapter: string, operation: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    if (LithoError.isInstance(error) && error.code === 'ERR_STORAGE') throw error
    throw createMeterError(adapter, operation, error instanceof Error ? error.message : String(error), error)
  }
}
