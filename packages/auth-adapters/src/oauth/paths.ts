/**
 * Where the authorization server's endpoints live, relative to `{auth_url}`.
 *
 * @module oauth/paths
 */

/** The paths of the authorization server, relative to `{auth_url}` (docs/authentication.md). */
export const OAUTH_PATHS = Object.freeze({
  metadata: '/.well-known/oauth-authorization-server/org/:org',
  jwks: '/org/:org/jwks.json',
  register: '/api/v1/auth/oauth2/register',
  authorize: '/api/v1/auth/oauth2/authorize',
  token: '/api/v1/auth/oauth2/token',
  revoke: '/api/v1/auth/oauth2/revoke',
  logout: '/api/v1/auth/oauth2/logout',
})

/** Strips one trailing slash, so `https://api.example.com/` and `https://api.example.com` are one resource. */
export function normalizeResource(value: string): string {
  return value.endsWith('/') ? value.slice(0, -1) : value
}
