// What a refusal must look like: a LithoError with an expected code whose issues each carry a
// path and a reason, and whose message names every path (the caller sees the field).
import { LithoError, type LithoErrorCode } from '../../src/errors.js'

/** Throws (so fast-check records a counterexample) unless `error` is a well-formed refusal with one of `codes`. */
export function assertRefusal(error: unknown, codes: readonly LithoErrorCode[]): LithoError {
  if (!LithoError.isInstance(error)) throw new Error(`expected a LithoError (${codes.join(' | ')}), got a crash: ${String((error as Error)?.stack ?? error)}`)
  if (!codes.includes(error.code)) throw new Error(`expected ${codes.join(' | ')}, got ${error.code}: ${error.message}`)
  if (error.code === 'ERR_UNKNOWN_VARIATION') {
    // No field issues: the one parameter it is about is `variation`, named in the details.
    if (typeof error.details.variation !== 'string') throw new Error(`ERR_UNKNOWN_VARIATION without details.variation: ${error.message}`)
    return error
  }
  if (error.code === 'ERR_IMAGE_INVALID' || error.code === 'ERR_IMAGE_FETCH') {
    // About what an image field points at: the component is named in the message and the details.
    const component = error.details.component
    if (typeof component !== 'string' || !error.message.startsWith(`${component}: `)) throw new Error(`${error.code} without the component: ${error.message}`)
    return error
  }
  if (error.issues.length === 0) throw new Error(`${error.code} without issues: ${error.message}`)
  for (const issue of error.issues) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string' || issue.message.trim() === '')
      throw new Error(`${error.code} with a malformed issue ${JSON.stringify(issue)}`)
    if (issue.path !== '' && !error.message.includes(issue.path)) throw new Error(`${error.code}: the message does not name ${JSON.stringify(issue.path)}: ${error.message}`)
  }
  return error
}

/** Runs `fn`; its result, or the refusal it threw (checked by {@link assertRefusal}). */
export function refusedOr<T>(fn: () => T, codes: readonly LithoErrorCode[]): { ok: true; value: T } | { ok: false; error: LithoError } {
  try {
    return { ok: true, value: fn() }
  } catch (error) {
    return { ok: false, error: assertRefusal(error, codes) }
  }
}
