/**
 * The pieces every "expected …, received …" message is built from (internal): how a received
 * value is shown, the zod error option that writes such a message, the whole-number schema the
 * parameters share, and the `ERR_INVALID_REQUEST` that lists every issue.
 *
 * @module _internal/messages
 */
import { LithoError, type LithoIssue } from '../errors.js'

export { describeReceived, expected, wholeNumber } from '../contracts/schemas/common.js'

/** An `ERR_INVALID_REQUEST` whose message lists every issue, e.g. `quality: expected a whole number from 1 to 100, received 0`. */
export function invalidRequest(issues: LithoIssue[]): LithoError {
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
  return new LithoError('ERR_INVALID_REQUEST', message, { issues })
}
