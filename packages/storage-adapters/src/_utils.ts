/**
 * Helpers shared by the backends. Internal: not exported.
 *
 * @module _utils
 */

/**
 * An error of a meter's backend: unreachable, or holding data the meter cannot read. Meters
 * fail closed, so every such failure rejects with one of these (the original error is `cause`)
 * and a caller can map them all to "try again later" by `code`.
 */
export type MeterBackendError = Error & { code: 'ERR_METER_BACKEND'; adapter: string; operation: string }

/** Wraps a backend failure; the message never contains credentials (the cause's message is the client's own). */
export function createMeterError(adapter: string, operation: string, message: string, cause?: unknown): MeterBackendError {
  const error = new Error(`[meter:${adapter}] ${operation}: ${message}`, cause === undefined ? undefined : { cause }) as MeterBackendError
  error.name = 'MeterBackendError'
  error.code = 'ERR_METER_BACKEND'
  error.adapter = adapter
  error.operation = operation
  if (Error.captureStackTrace) Error.captureStackTrace(error, createMeterError)
  return error
}

/** Runs `task`; any error it throws is wrapped with {@link createMeterError} unless it already is one. */
export async function wrapBackendErrors<T>(adapter: string, operation: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_METER_BACKEND') throw error
    throw createMeterError(adapter, operation, error instanceof Error ? error.message : String(error), error)
  }
}
