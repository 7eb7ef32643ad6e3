/**
 * The refusals of the JSON endpoints as one coded error: a handler throws an `OAuthError`, and
 * the binding of the endpoints (endpoints/index.ts) turns it into the RFC 6749 §5.2 body.
 *
 * @module oauth/oauth-error
 */
import { BodyTooLargeError } from '../read-body.js'
import { oauthError } from './_http.js'

/**
 * A request the server refuses with an OAuth error (RFC 6749 §5.2, RFC 7009, RFC 7591 §3.2.2):
 * `error` is the protocol's code, the message its `error_description`.
 *
 * @example
 * throw new OAuthError('invalid_grant', 'The code has expired')
 */
export class OAuthError extends Error {
  override readonly name: string = 'OAuthError'
  readonly code = 'ERR_OAUTH_REFUSED'

  constructor(
    /** The protocol's error code: `invalid_request`, `invalid_grant`, `invalid_client`… */
    readonly error: string,
    message: string,
    /** 400 unless said otherwise (401 for client authentication, 404, 429, 503…). */
    readonly status = 400,
    /** Extra headers of the answer (`www-authenticate`, `retry-after`, `allow`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }

  /** True for an OAuthError of any copy of this package (bundlers may load two). */
  static is(error: unknown): error is OAuthError {
    return error instanceof OAuthError || (error instanceof Error && (error as { code?: unknown }).code === 'ERR_OAUTH_REFUSED' && typeof (error as { error?: unknown }).error === 'string')
  }
}

/**
 * The answer to an expected refusal: an {@link OAuthError}, or a body over the limit (413
 * `invalid_request`, on every endpoint, the pages' forms too). Anything else is rethrown: it is
 * a server error, which the caller reports.
 */
export function refusalResponse(error: unknown): Response {
  if (OAuthError.is(error)) return oauthError(error.error, error.message, error.status, { ...error.headers })
  if (BodyTooLargeError.is(error)) return oauthError('invalid_request', `The body is larger than ${error.limit} bytes`, 413)
  throw error
}
