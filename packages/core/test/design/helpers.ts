import { LithoError, indexComponents, type DesignDocument } from '../../src/index.js'

/** The component with `key`, as a plain record for field assertions. */
export const get = (doc: DesignDocument, key: string): Record<string, unknown> =>
  indexComponents(doc.components).get(key) as unknown as Record<string, unknown>

/** Runs `fn` and returns the LithoError it throws; fails if it throws nothing or something else. */
export function catchError(fn: () => unknown): LithoError {
  try {
    fn()
  } catch (error) {
    if (LithoError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a LithoError')
}
