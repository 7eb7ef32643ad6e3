/**
 * The OAuth 2.1 authorization server and bearer verification.
 *
 * @module oauth
 */
export { OAUTH_PATHS, createAuthorizationServer, normalizeResource, type AuthorizationServer } from './authorization-server.js'
export { decodeEndpointParams, malformedParamsResponse, type EndpointRequestContext, type OAuthEndpoint, type OAuthEndpointName } from './endpoints/index.js'
export { MAX_OPERATOR_TOKEN_TTL, MIN_OPERATOR_TOKEN_TTL, OPERATOR_CLIENT_ID, type MintAccessTokenRequest, type MintedAccessToken } from './operator-tokens.js'
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
