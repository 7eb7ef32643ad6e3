/**
 * The OAuth 2.1 authorization server and bearer verification.
 *
 * @module oauth
 */
export { OAUTH_PATHS, createAuthorizationServer, normalizeResource, type AuthorizationServer } from './authorization-server.js'
export type { EndpointRequestContext, OAuthEndpoint, OAuthEndpointName } from './endpoints/index.js'
export { createJwksVerifier, type JwksVerifierOptions } from './verify-access-token.js'
export { redirectUriMatches, redirectUriProblem } from './clients.js'
export { KEY_RETIREMENT_MARGIN_SECONDS, rotateOrgSigningKey, type RotateOrgSigningKeyOptions, type RotatedOrgSigningKey } from './orgs.js'
export {
  BearerTokenError,
  BearerVerifierUnavailableError,
  SCOPES,
  type AuthorizationServerOptions,
  type BearerPrincipal,
  type BearerVerifier,
  type ClientRecord,
  type OrgRecord,
  type PreIssuedClient,
  type RequestContext,
} from './types.js'
