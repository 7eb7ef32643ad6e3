/**
 * What the authorization server keeps in the auth state store between requests, and under
 * which key. Secrets (codes, refresh tokens, sessions) are keyed by their SHA-256, never stored.
 *
 * @module oauth/records
 */

/** An authorization code, under `code.<sha256(code)>`; replaced by `{ used: true }` when redeemed. */
export interface CodeRecord {
  clientId: string
  orgId: string
  userId: string
  redirectUri: string
  /** The PKCE S256 challenge the verifier must match. */
  challenge: string
  resource: string
  scope: string
  expiresAt: string
}

/** An authorization request between its GET and the forms, under `areq.<request id>`. */
export interface PendingRequest {
  clientId: string
  orgId: string
  redirectUri: string
  state: string | null
  challenge: string
  resource: string
  scopes: string[]
  /** SHA-256 of the CSRF token of its forms. */
  csrfHash: string
}

/** A refresh token as issued (never changed), under `rt.<hash>`; its use is recorded apart, under `rtu.<hash>`. */
export interface RefreshRecord {
  familyId: string
  scope: string
}

/** The first use of a refresh token. */
export interface RefreshUse {
  rotatedAt: string
}

/** How long an authorization request waits for its forms (and the CSRF cookie lives). */
export const PENDING_TTL_SECONDS = 600

/** The id of a pending request: 18 random bytes, base64url. */
export const REQUEST_ID = /^[A-Za-z0-9_-]{24}$/

/** A session or CSRF token: 32 random bytes, base64url. */
export const TOKEN_32 = /^[A-Za-z0-9_-]{43}$/

/** A refresh token: `lrt_<family id>.<32 random bytes>`. */
export const REFRESH_TOKEN = /^lrt_([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/
