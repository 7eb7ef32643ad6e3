/**
 * The built-in authorization server's endpoints (`{auth_url}`, with `oauth`): its RFC 8414
 * metadata and JWKS per org (which answer their own CORS preflights), and registration,
 * authorization, token, revocation and sign-out, which take every method and answer the ones
 * they do not serve themselves. What they do is the `AuthorizationServer`'s
 * (`@litho/auth-adapters`); an error it does not answer is OAuth's `server_error` (errors.ts).
 *
 * @module routes/oauth-routes
 */
import { OAUTH_PATHS } from '@litho/auth-adapters'
import * as z from 'zod'
import { jsonResponse, oauthErrorBody } from '../openapi/responses.js'
import { ref } from '../openapi/schema.js'
import type { AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'

/** Mounted with the built-in authorization server. */
const hasOAuth = (app: AppContext) => app.options.oauth !== undefined

const oauthOf = (app: AppContext) => app.options.oauth!

const orgParams = z.object({
  org: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .meta({ description: 'The org id, as in the issuer `{auth_url}/org/{org}` named by the protected-resource metadata.' }),
})

const orgQuery = (description: string) => ({ name: 'org', in: 'query', required: false, description, schema: { type: 'string' } })

/** `GET /.well-known/oauth-authorization-server/org/:org`: RFC 8414 metadata. */
export const authorizationServerMetadataRoute = defineRoute({
  method: 'GET',
  path: '/.well-known/oauth-authorization-server/org/:org',
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  cors: { kind: 'self' },
  operationId: 'getAuthorizationServerMetadata',
  tags: ['oauth'],
  summary: 'Authorization-server metadata of an org (RFC 8414)',
  params: orgParams,
  responses: {
    '200': jsonResponse('The metadata (cacheable for 5 minutes).', 'AuthorizationServerMetadata'),
    '404': oauthErrorBody('No such org.'),
  },
  handler: ({ app, event, param }) => oauthOf(app).metadata(event.req, param('org')),
})

/** `GET /org/:org/jwks.json`: the token-signing keys. */
export const jwksRoute = defineRoute({
  method: 'GET',
  path: '/org/:org/jwks.json',
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  cors: { kind: 'self' },
  operationId: 'getJwks',
  tags: ['oauth'],
  summary: 'The public keys that sign the access tokens of an org',
  params: orgParams,
  responses: {
    '200': jsonResponse('The JWK set (cacheable for 5 minutes).', 'Jwks'),
    '404': oauthErrorBody('No such org.'),
  },
  handler: ({ app, event, param }) => oauthOf(app).jwks(event.req, param('org')),
})

/** `/api/v1/auth/oauth2/register`: dynamic client registration (every method). */
export const registerRoute = defineRoute({
  method: 'ALL',
  path: OAUTH_PATHS.register,
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  documented: 'post',
  operationId: 'registerClient',
  tags: ['oauth'],
  summary: 'Register a client (RFC 7591)',
  description: 'Dynamic client registration, open to anyone (rate-limited per address). A client unused for 90 days (by default) is forgotten; on `invalid_client` from the token endpoint, register again.',
  query: [orgQuery('The org to register with; may be left out when the server has one default org.')],
  requestBody: { required: true, content: { 'application/json': { schema: ref('ClientRegistrationRequest') } } },
  responses: {
    '201': jsonResponse('The client: its `client_id`, and `client_secret` for a confidential client.', 'ClientRegistrationResponse'),
    '400': oauthErrorBody('`invalid_redirect_uri` or `invalid_client_metadata` (including a body that is not JSON).'),
    '404': oauthErrorBody('Unknown org.'),
    '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
    '429': oauthErrorBody('Too many registrations from this address; retry in an hour.', { 'Retry-After': { schema: { type: 'integer' } } }),
  },
  handler: ({ app, event }) => oauthOf(app).register(event.req, { clientAddress: app.clientAddress(event) }),
})

/** `/api/v1/auth/oauth2/authorize`: the sign-in and consent pages (every method). */
export const authorizeRoute = defineRoute({
  method: 'ALL',
  path: OAUTH_PATHS.authorize,
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  documented: 'get',
  // No CORS on the authorization endpoint (RFC 9700): it is for browsers' top-level navigation.
  operationId: 'authorize',
  tags: ['oauth'],
  summary: 'Start an authorization (a page for the user\'s browser)',
  description: 'Shows the sign-in page (email and password), then the consent page naming the client, its redirect host and the scopes; their forms POST back here. Allow redirects to `redirect_uri` with `code`, `state` and `iss`; Deny with `error=access_denied`. Until the client and redirect URI are known good, every error is an error page. After that, errors of a client configured by the operator are redirects with `error`; errors of a dynamically registered client (or a metadata-document client) are an error page with a link back that the user may follow, never an automatic redirect (RFC 9700 §4.11.2). The sign-in form is limited per (email, address), address and email (429 with `Retry-After`) and answers 503 with `Retry-After` when password checking is busy. No CORS: for top-level navigation only.',
  query: [
    { name: 'client_id', in: 'query', required: true, schema: { type: 'string' } },
    { name: 'redirect_uri', in: 'query', required: false, description: 'One of the registered ones (loopback http: any port); required when the client has several.', schema: { type: 'string' } },
    { name: 'response_type', in: 'query', required: true, schema: { const: 'code' } },
    { name: 'code_challenge', in: 'query', required: true, description: 'BASE64URL(SHA-256(code_verifier)), 43 characters.', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
    { name: 'code_challenge_method', in: 'query', required: true, schema: { const: 'S256' } },
    { name: 'scope', in: 'query', required: false, description: 'Space separated; default: what the client may ask for.', schema: { type: 'string', examples: ['read write'] } },
    { name: 'resource', in: 'query', required: false, description: 'The resource the token is for (RFC 8707): `{base_url}` (the default) or `{base_url}/api/mcp`.', schema: { type: 'string', format: 'uri' } },
    { name: 'state', in: 'query', required: false, description: 'Returned unchanged on the redirect.', schema: { type: 'string' } },
    { name: 'org', in: 'query', required: false, description: 'Must match the client\'s org when given.', schema: { type: 'string' } },
    { name: 'prompt', in: 'query', required: false, description: '`none`: never show a sign-in or consent page; a configured client gets a redirect with `login_required` or `consent_required`, a dynamically registered one an error page.', schema: { const: 'none' } },
  ],
  responses: {
    '200': { description: 'The sign-in or consent page.', content: { 'text/html': {} } },
    '302': { description: 'Back to `redirect_uri` with `code` (or `error`, `error_description`), `state` and `iss`.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
    '400': { description: 'Unknown client, unregistered `redirect_uri` or unknown org, or any error of a dynamically registered client: an error page.', content: { 'text/html': {} } },
  },
  handler: ({ app, event }) => oauthOf(app).authorize(event.req, { clientAddress: app.clientAddress(event) }),
})

/** `/api/v1/auth/oauth2/token`: the token endpoint (every method). */
export const tokenRoute = defineRoute({
  method: 'ALL',
  path: OAUTH_PATHS.token,
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  documented: 'post',
  operationId: 'token',
  tags: ['oauth'],
  summary: 'Redeem a code or a refresh token',
  description: 'Answers with `Cache-Control: no-store`. Reusing a code revokes the tokens it issued.',
  query: [orgQuery('Optional; when given, it must be the client\'s org.')],
  requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
  responses: {
    '200': jsonResponse('The tokens.', 'TokenResponse'),
    '400': oauthErrorBody('`invalid_request`, `invalid_grant` (code unknown, used, expired, of another client, wrong `redirect_uri` or `code_verifier`; refresh token revoked or reused), `invalid_scope`, `invalid_target`, `unauthorized_client` or `unsupported_grant_type`.'),
    '401': oauthErrorBody('`invalid_client`: unknown client id (register again) or failed client authentication.'),
    '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
  },
  handler: ({ app, event }) => oauthOf(app).token(event.req, { clientAddress: app.clientAddress(event) }),
})

/** `/api/v1/auth/oauth2/revoke`: token revocation (every method). */
export const revokeRoute = defineRoute({
  method: 'ALL',
  path: OAUTH_PATHS.revoke,
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  documented: 'post',
  operationId: 'revokeToken',
  tags: ['oauth'],
  summary: 'Revoke a token (RFC 7009)',
  description: 'Revokes the whole sign-in the token belongs to: its refresh tokens and, at once, its access tokens (send the refresh token to sign a client out for good). A token that is unknown or of another client is not revoked, and the answer is the same.',
  query: [orgQuery('Optional.')],
  requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('RevocationRequest') } } },
  responses: {
    '200': { description: 'Done (or nothing to do).' },
    '400': oauthErrorBody('`invalid_request`: no `token`, or not a form.'),
    '401': oauthErrorBody('`invalid_client`.'),
    '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
  },
  handler: ({ app, event }) => oauthOf(app).revoke(event.req, { clientAddress: app.clientAddress(event) }),
})

/** `/api/v1/auth/oauth2/logout`: signing out of the sign-in pages (every method). */
export const logoutRoute = defineRoute({
  method: 'ALL',
  path: OAUTH_PATHS.logout,
  server: 'auth',
  auth: { kind: 'public' },
  errors: 'oauth',
  when: hasOAuth,
  documented: 'get',
  operationId: 'signOutPage',
  tags: ['oauth'],
  summary: 'Sign out of the sign-in pages (a page for the user\'s browser)',
  description: 'Shows a confirmation form (a GET never signs out). Its POST, CSRF-checked, deletes the session and its cookie, then returns to `post_logout_redirect_uri` when it is registered for `client_id` (with `state`), or shows a page. The consent page links here ("Not you? Sign out"). Access and refresh tokens already issued stay valid: revoke them at the revocation endpoint.',
  query: [
    { name: 'client_id', in: 'query', required: false, schema: { type: 'string' } },
    { name: 'post_logout_redirect_uri', in: 'query', required: false, description: 'A redirect URI registered for `client_id`; any other is refused with a page.', schema: { type: 'string', format: 'uri' } },
    { name: 'state', in: 'query', required: false, description: 'Returned on the redirect.', schema: { type: 'string' } },
  ],
  responses: {
    '200': { description: 'The sign-out form; after the POST, the signed-out page (or the sign-in page of the pending request it came from).', content: { 'text/html': {} } },
    '302': { description: 'After the POST: back to `post_logout_redirect_uri`.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
    '403': { description: 'The POST without its CSRF token: an error page.', content: { 'text/html': {} } },
  },
  handler: ({ app, event }) => oauthOf(app).logout(event.req, { clientAddress: app.clientAddress(event) }),
})
