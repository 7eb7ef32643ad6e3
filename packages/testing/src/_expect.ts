/**
 * Assertions the conformance cases share, and the invalid ids they feed them. Internal: not
 * exported.
 *
 * @module _expect
 */
import { expect } from 'vitest'

/** The codes of the TypeErrors an adapter throws for bad input. */
export type InvalidCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_INVALID_ARG_VALUE'

/**
 * Ids every store must refuse, with the code it must refuse them with: the ports of designs
 * and accounts share one rule for ids, `[A-Za-z0-9_-]{1,64}`.
 */
export const INVALID_IDS: ReadonlyArray<[label: string, value: unknown, code: InvalidCode]> = [
  ['empty', '', 'ERR_INVALID_ARG_VALUE'],
  ['with a colon', 'a:b', 'ERR_INVALID_ARG_VALUE'],
  ['with a slash', 'a/b', 'ERR_INVALID_ARG_VALUE'],
  ['with a dot', 'a.b', 'ERR_INVALID_ARG_VALUE'],
  ['with a space', 'a b', 'ERR_INVALID_ARG_VALUE'],
  ['non-ASCII', 'é', 'ERR_INVALID_ARG_VALUE'],
  ['of 65 characters', 'x'.repeat(65), 'ERR_INVALID_ARG_VALUE'],
  ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
  ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
]

/**
 * Each call must reject (not throw synchronously: adapter methods are `async`) with a TypeError
 * of the code.
 */
export async function expectInvalid(cases: Array<[label: string, call: () => Promise<unknown>, code: InvalidCode]>): Promise<void> {
  for (const [label, call, code] of cases) {
    let promise: Promise<unknown>
    try {
      promise = call()
    } catch (error) {
      throw new Error(`${label}: expected a rejected promise but the call threw synchronously`, { cause: error })
    }
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(error, `${label}: expected a rejection`).toBeInstanceOf(TypeError)
    expect((error as { code?: unknown }).code, `${label}: code`).toBe(code)
  }
}

/**
 * Retries `assertion` for up to `timeoutMs`: what the port lets lag behind writes (lists,
 * `markKeyUsed`); every other read must be exact at once.
 */
export async function eventually(assertion: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await assertion()
    } catch (error) {
      if (Date.now() >= deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
