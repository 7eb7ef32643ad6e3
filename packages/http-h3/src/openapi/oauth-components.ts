/**
 * The component schemas of the discovery documents (RFC 9728, RFC 8414) and of the built-in
 * authorization server's requests and answers (RFC 6749, RFC 7591, RFC 7009).
 *
 * @module openapi/oauth-components
 */
import { OAUTH_PATHS, SCOPES } from '@litho/auth-adapters'
import type { JsonSchema } from './schema.js'

/** Schemas of the discovery documents and the built-in authorization server's bodies. */
export const OAUTH_SCHEMAS: Record<string, JsonSchema> = {
  ProtectedResourceMetadata: {
    type: 'object',
    description: 'RFC 9728 protected-resource metadata.',
    required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
    properties: {
      resource: { type: 'string', format: 'uri', description: 'The resource: `{base_url}`, or `{base_url}/api/mcp` for the MCP endpoint. Tokens must be issued for it (`resource` parameter, RFC 8707).' },
      authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Issuers whose tokens are accepted, e.g. `{auth_url}/org/{org}`; their metadata is at `{auth_url}/.well-known/oauth-authorization-server/org/{org}`.' },
      scopes_supported: { type: 'array', items: { enum: [...SCOPES] } },
      bearer_methods_supported: { type: 'array', items: { const: 'header' } },
      resource_name: { type: 'string' },
      resource_documentation: { type: 'string', format: 'uri', description: 'This document (`{base_url}/openapi.json`).' },
    },
  },
  OAuthError: {
    type: 'object',
    description: 'An OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2).',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'e.g. `invalid_request`, `invalid_client`, `invalid_grant`, `invalid_scope`, `invalid_target`, `unsupported_grant_type`, `unauthorized_client`, `invalid_redirect_uri`, `invalid_client_metadata`.' },
      error_description: { type: 'string' },
    },
  },
  AuthorizationServerMetadata: {
    type: 'object',
    description: 'RFC 8414 authorization-server metadata of one org.',
    additionalProperties: true,
    required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'grant_types_supported', 'code_challenge_methods_supported', 'scopes_supported'],
    properties: {
      issuer: { type: 'string', format: 'uri', description: '`{auth_url}/org/{org}`.' },
      authorization_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.authorize}\` (without \`?org=\`: the org comes from the client).` },
      token_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.token}?org={org}\`.` },
      registration_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.register}?org={org}\`.` },
      revocation_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.revoke}?org={org}\`.` },
      end_session_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.logout}\`: ends the browser session of the sign-in pages.` },
      jwks_uri: { type: 'string', format: 'uri', description: '`{auth_url}/org/{org}/jwks.json`.' },
      response_types_supported: { type: 'array', items: { const: 'code' } },
      response_modes_supported: { type: 'array', items: { const: 'query' } },
      grant_types_supported: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] } },
      code_challenge_methods_supported: { type: 'array', items: { const: 'S256' } },
      token_endpoint_auth_methods_supported: { type: 'array', items: { enum: ['none', 'client_secret_basic', 'client_secret_post'] } },
      revocation_endpoint_auth_methods_supported: { type: 'array', items: { enum: ['none', 'client_secret_basic', 'client_secret_post'] } },
      scopes_supported: { type: 'array', items: { enum: [...SCOPES] } },
      authorization_response_iss_parameter_supported: { const: true },
      client_id_metadata_document_supported: { type: 'boolean', description: 'Whether an https URL of a Client ID Metadata Document is accepted as `client_id`.' },
      resource_indicators_supported: { const: true },
      agent_auth: {
        type: 'object',
        description: 'Identity type `anonymous`: register at `register_uri`, bind a user at `claim_uri` (the authorization endpoint), revoke at `revocation_uri`.',
        properties: {
          identity_types_supported: { type: 'array', items: { const: 'anonymous' } },
          anonymous: { type: 'object', properties: { credential_types_supported: { type: 'array', items: { const: 'oauth2_client' } } } },
          register_uri: { type: 'string', format: 'uri' },
          claim_uri: { type: 'string', format: 'uri' },
          revocation_uri: { type: 'string', format: 'uri' },
        },
      },
    },
  },
  Jwks: {
    type: 'object',
    description: 'The public keys (ES256, JWK) that sign the access tokens of an org.',
    required: ['keys'],
    properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { kty: { const: 'EC' }, crv: { const: 'P-256' }, kid: { type: 'string' }, alg: { const: 'ES256' }, use: { const: 'sig' }, x: { type: 'string' }, y: { type: 'string' } } } } },
  },
  ClientRegistrationRequest: {
    type: 'object',
    description: 'RFC 7591 client metadata.',
    required: ['redirect_uris'],
    properties: {
      client_name: { type: 'string', maxLength: 200, default: 'Unnamed client', description: 'Shown on the consent page.' },
      redirect_uris: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', format: 'uri' }, description: 'https, http on a loopback host (any port matches), or a reverse-domain private-use scheme; no fragment, no credentials.' },
      grant_types: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] }, default: ['authorization_code'], description: 'Must include `authorization_code`; add `refresh_token` to get refresh tokens.' },
      response_types: { type: 'array', items: { const: 'code' }, default: ['code'] },
      token_endpoint_auth_method: { enum: ['none', 'client_secret_basic', 'client_secret_post'], default: 'client_secret_basic', description: '`none` for public clients (PKCE only); the others get a `client_secret`.' },
      scope: { type: 'string', description: 'The scopes the client may ask for, space separated (`read`, `write`); default both.' },
      application_type: { enum: ['web', 'native'] },
      client_uri: { type: 'string', format: 'uri', description: 'https only.' },
      logo_uri: { type: 'string', format: 'uri', description: 'https only.' },
    },
  },
  ClientRegistrationResponse: {
    type: 'object',
    required: ['client_id', 'client_id_issued_at', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method'],
    properties: {
      client_id: { type: 'string', description: '`<org>.<random>`.' },
      client_id_issued_at: { type: 'integer' },
      client_secret: { type: 'string', description: 'Confidential clients only; shown once.' },
      client_secret_expires_at: { const: 0, description: 'Confidential clients only: the secret does not expire.' },
      client_name: { type: 'string' },
      redirect_uris: { type: 'array', items: { type: 'string' } },
      grant_types: { type: 'array', items: { type: 'string' } },
      response_types: { type: 'array', items: { type: 'string' } },
      token_endpoint_auth_method: { type: 'string' },
      application_type: { type: 'string' },
      scope: { type: 'string' },
      client_uri: { type: 'string' },
      logo_uri: { type: 'string' },
    },
  },
  TokenRequest: {
    type: 'object',
    description: 'Form fields of the token endpoint. A confidential client authenticates with HTTP Basic or `client_secret`.',
    required: ['grant_type'],
    properties: {
      grant_type: { enum: ['authorization_code', 'refresh_token'] },
      code: { type: 'string', description: '`authorization_code`: the code from the redirect (usable once, for 60 s by default).' },
      redirect_uri: { type: 'string', description: '`authorization_code`: the one of the authorization request.' },
      code_verifier: { type: 'string', description: '`authorization_code`: the PKCE verifier, 43-128 characters.' },
      refresh_token: { type: 'string', description: '`refresh_token`: the current refresh token (it rotates on every use).' },
      scope: { type: 'string', description: '`refresh_token`: narrow the granted scopes.' },
      resource: { type: 'string', format: 'uri', description: 'The resource of the authorization request (RFC 8707): `{base_url}` or `{base_url}/api/mcp`.' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', description: 'With `client_secret_post`.' },
    },
  },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    properties: {
      access_token: { type: 'string', description: 'A JWT (RFC 9068, `typ: at+jwt`, ES256) for `Authorization: Bearer`, with the audience of the authorized resource.' },
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Seconds; 3600 by default.' },
      scope: { type: 'string', description: 'The granted scopes, space separated.' },
      refresh_token: { type: 'string', description: 'For clients registered with the `refresh_token` grant. Rotates on every use; a reuse after a short grace window revokes the whole sign-in.' },
    },
  },
  RevocationRequest: {
    type: 'object',
    description: 'Form fields of RFC 7009 revocation. Revoking either token revokes the whole sign-in (its refresh and access tokens).',
    required: ['token'],
    properties: {
      token: { type: 'string', description: 'An access token or a refresh token.' },
      token_type_hint: { enum: ['access_token', 'refresh_token'], description: 'Accepted and ignored: the token is recognised by its form.' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', description: 'With `client_secret_post`.' },
    },
  },
}
