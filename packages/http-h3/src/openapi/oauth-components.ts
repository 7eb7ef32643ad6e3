/**
 * The component schemas of the discovery documents (RFC 9728, RFC 8414) and of the built-in
 * authorization server's requests and answers (RFC 6749, RFC 7591, RFC 7009), as zod schemas
 * that the routes name as their bodies and responses.
 *
 * @module openapi/oauth-components
 */
import { OAUTH_PATHS, SCOPES } from '@litho/auth-adapters'
import * as z from 'zod'
import { defineComponents } from './schema.js'

const scopeEnum = z.enum(SCOPES)
const grantTypeEnum = z.enum(['authorization_code', 'refresh_token'])
const clientAuthMethodEnum = z.enum(['none', 'client_secret_basic', 'client_secret_post'])

/** RFC 9728 protected-resource metadata. */
export const ProtectedResourceMetadataSchema = z
  .object({
    resource: z.url().meta({ description: 'The resource: `{base_url}`, or `{base_url}/api/mcp` for the MCP endpoint. Tokens must be issued for it (`resource` parameter, RFC 8707).' }),
    authorization_servers: z.array(z.url()).meta({ description: 'Issuers whose tokens are accepted, e.g. `{auth_url}/org/{org}`; their metadata is at `{auth_url}/.well-known/oauth-authorization-server/org/{org}`.' }),
    scopes_supported: z.array(scopeEnum),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_name: z.string().optional(),
    resource_documentation: z.url().optional().meta({ description: 'This document (`{base_url}/openapi.json`).' }),
  })
  .meta({ description: 'RFC 9728 protected-resource metadata.' })

/** An OAuth error body. */
export const OAuthErrorSchema = z
  .object({
    error: z.string().meta({ description: 'e.g. `invalid_request`, `invalid_client`, `invalid_grant`, `invalid_scope`, `invalid_target`, `unsupported_grant_type`, `unauthorized_client`, `invalid_redirect_uri`, `invalid_client_metadata`.' }),
    error_description: z.string().optional(),
  })
  .meta({ description: 'An OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2).' })

/** RFC 8414 metadata of one org. */
export const AuthorizationServerMetadataSchema = z
  .looseObject({
    issuer: z.url().meta({ description: '`{auth_url}/org/{org}`.' }),
    authorization_endpoint: z.url().meta({ description: `\`{auth_url}${OAUTH_PATHS.authorize}\` (without \`?org=\`: the org comes from the client).` }),
    token_endpoint: z.url().meta({ description: `\`{auth_url}${OAUTH_PATHS.token}?org={org}\`.` }),
    registration_endpoint: z.url().optional().meta({ description: `\`{auth_url}${OAUTH_PATHS.register}?org={org}\`.` }),
    revocation_endpoint: z.url().optional().meta({ description: `\`{auth_url}${OAUTH_PATHS.revoke}?org={org}\`.` }),
    end_session_endpoint: z.url().optional().meta({ description: `\`{auth_url}${OAUTH_PATHS.logout}\`: ends the browser session of the sign-in pages.` }),
    jwks_uri: z.url().meta({ description: '`{auth_url}/org/{org}/jwks.json`.' }),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')).optional(),
    grant_types_supported: z.array(grantTypeEnum),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(clientAuthMethodEnum).optional(),
    revocation_endpoint_auth_methods_supported: z.array(clientAuthMethodEnum).optional(),
    scopes_supported: z.array(scopeEnum),
    authorization_response_iss_parameter_supported: z.literal(true).optional(),
    client_id_metadata_document_supported: z.boolean().optional().meta({ description: 'Whether an https URL of a Client ID Metadata Document is accepted as `client_id`.' }),
    resource_indicators_supported: z.literal(true).optional(),
    agent_auth: z
      .object({
        identity_types_supported: z.array(z.literal('anonymous')).optional(),
        anonymous: z.object({ credential_types_supported: z.array(z.literal('oauth2_client')).optional() }).optional(),
        register_uri: z.url().optional(),
        claim_uri: z.url().optional(),
        revocation_uri: z.url().optional(),
      })
      .optional()
      .meta({ description: 'Identity type `anonymous`: register at `register_uri`, bind a user at `claim_uri` (the authorization endpoint), revoke at `revocation_uri`.' }),
  })
  .meta({ description: 'RFC 8414 authorization-server metadata of one org.' })

/** The public signing keys of an org. */
export const JwksSchema = z
  .object({
    keys: z.array(
      z.looseObject({
        kty: z.literal('EC').optional(),
        crv: z.literal('P-256').optional(),
        kid: z.string().optional(),
        alg: z.literal('ES256').optional(),
        use: z.literal('sig').optional(),
        x: z.string().optional(),
        y: z.string().optional(),
      }),
    ),
  })
  .meta({ description: 'The public keys (ES256, JWK) that sign the access tokens of an org.' })

/** RFC 7591 client metadata. */
export const ClientRegistrationRequestSchema = z
  .object({
    client_name: z.string().max(200).default('Unnamed client').meta({ description: 'Shown on the consent page.' }),
    redirect_uris: z.array(z.url()).min(1).max(20).meta({ description: 'https, http on a loopback host (any port matches), or a reverse-domain private-use scheme; no fragment, no credentials.' }),
    grant_types: z.array(grantTypeEnum).default(['authorization_code']).meta({ description: 'Must include `authorization_code`; add `refresh_token` to get refresh tokens.' }),
    response_types: z.array(z.literal('code')).default(['code']),
    token_endpoint_auth_method: clientAuthMethodEnum.default('client_secret_basic').meta({ description: '`none` for public clients (PKCE only); the others get a `client_secret`.' }),
    scope: z.string().optional().meta({ description: 'The scopes the client may ask for, space separated (`read`, `write`); default both.' }),
    application_type: z.enum(['web', 'native']).optional(),
    client_uri: z.url().optional().meta({ description: 'https only.' }),
    logo_uri: z.url().optional().meta({ description: 'https only.' }),
  })
  .meta({ description: 'RFC 7591 client metadata.' })

/** A registered client. */
export const ClientRegistrationResponseSchema = z.object({
  client_id: z.string().meta({ description: '`<org>.<random>`.' }),
  client_id_issued_at: z.int(),
  client_secret: z.string().optional().meta({ description: 'Confidential clients only; shown once.' }),
  client_secret_expires_at: z.literal(0).optional().meta({ description: 'Confidential clients only: the secret does not expire.' }),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.string(),
  application_type: z.string().optional(),
  scope: z.string().optional(),
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
})

/** The form fields of the token endpoint. */
export const TokenRequestSchema = z
  .object({
    grant_type: grantTypeEnum,
    code: z.string().optional().meta({ description: '`authorization_code`: the code from the redirect (usable once, for 60 s by default).' }),
    redirect_uri: z.string().optional().meta({ description: '`authorization_code`: the one of the authorization request.' }),
    code_verifier: z.string().optional().meta({ description: '`authorization_code`: the PKCE verifier, 43-128 characters.' }),
    refresh_token: z.string().optional().meta({ description: '`refresh_token`: the current refresh token (it rotates on every use).' }),
    scope: z.string().optional().meta({ description: '`refresh_token`: narrow the granted scopes.' }),
    resource: z.url().optional().meta({ description: 'The resource of the authorization request (RFC 8707): `{base_url}` or `{base_url}/api/mcp`.' }),
    client_id: z.string().optional(),
    client_secret: z.string().optional().meta({ description: 'With `client_secret_post`.' }),
  })
  .meta({ description: 'Form fields of the token endpoint. A confidential client authenticates with HTTP Basic or `client_secret`.' })

/** The answer of the token endpoint. */
export const TokenResponseSchema = z.object({
  access_token: z.string().meta({ description: 'A JWT (RFC 9068, `typ: at+jwt`, ES256) for `Authorization: Bearer`, with the audience of the authorized resource.' }),
  token_type: z.literal('Bearer'),
  expires_in: z.int().meta({ description: 'Seconds; 3600 by default.' }),
  scope: z.string().meta({ description: 'The granted scopes, space separated.' }),
  refresh_token: z.string().optional().meta({ description: 'For clients registered with the `refresh_token` grant. Rotates on every use; a reuse after a short grace window revokes the whole sign-in.' }),
})

/** The form fields of RFC 7009 revocation. */
export const RevocationRequestSchema = z
  .object({
    token: z.string().meta({ description: 'An access token or a refresh token.' }),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional().meta({ description: 'Accepted and ignored: the token is recognised by its form.' }),
    client_id: z.string().optional(),
    client_secret: z.string().optional().meta({ description: 'With `client_secret_post`.' }),
  })
  .meta({ description: 'Form fields of RFC 7009 revocation. Revoking either token revokes the whole sign-in (its refresh and access tokens).' })

/** The component schemas of the discovery documents and the built-in authorization server's bodies, by name. */
export const OAUTH_COMPONENTS = defineComponents({
  ProtectedResourceMetadata: ProtectedResourceMetadataSchema,
  OAuthError: OAuthErrorSchema,
  AuthorizationServerMetadata: AuthorizationServerMetadataSchema,
  Jwks: JwksSchema,
  ClientRegistrationRequest: ClientRegistrationRequestSchema,
  ClientRegistrationResponse: ClientRegistrationResponseSchema,
  TokenRequest: TokenRequestSchema,
  TokenResponse: TokenResponseSchema,
  RevocationRequest: RevocationRequestSchema,
})
