/**
 * The endpoints of the authorization server as a table: each one a path, the methods to route
 * to it and a plain handler. `createAuthorizationServer` binds the table to its context; a
 * framework mounts the bound entries (`server.endpoints`), and `handle()` routes through them.
 *
 * @module oauth/endpoints
 */
import { oauthError } from '../_http.js'
import type { EndpointHandler, OAuthContext } from '../context.js'
import { refusalResponse } from '../oauth-error.js'
import { errorPage } from '../pages.js'
import { OAUTH_PATHS } from '../paths.js'
import type { RequestContext } from '../types.js'
import { authorize } from './authorize.js'
import { jwks } from './jwks.js'
import { logout } from './logout.js'
import { metadata } from './metadata.js'
import { register } from './register.js'
import { revoke } from './revoke.js'
import { token } from './token.js'

/** The names of the endpoints, as in `OAUTH_PATHS`. */
export type OAuthEndpointName = 'metadata' | 'jwks' | 'register' | 'authorize' | 'token' | 'revoke' | 'logout'

/** The facts of one request a mount passes to an endpoint: the client's address, and the path's parameters (percent-decoded). */
export interface EndpointRequestContext extends RequestContext {
  params?: Readonly<Record<string, string>>
}

/** One endpoint of a server, ready to mount. */
export interface OAuthEndpoint {
  readonly name: OAuthEndpointName
  /** Relative to `{auth_url}`; `:org` is a path parameter. */
  readonly path: string
  /** The methods to route to it, or `'*'` for every method (the endpoint answers the ones it does not serve with 405 itself). */
  readonly methods: readonly string[] | '*'
  /** Answers a request; throws only on an unexpected failure (storage down…): report it, and answer {@link OAuthEndpoint.serverError}. */
  handler(request: Request, context?: EndpointRequestContext): Promise<Response>
  /** The 500 after an unexpected failure: a page on the browser endpoints (authorize, logout), RFC 6749 `server_error` on the others. */
  serverError(): Response
}

interface EndpointDefinition {
  name: OAuthEndpointName
  path: string
  methods: readonly string[] | '*'
  /** Who reads the answers: a program (JSON, CORS) or a person in a browser (HTML pages). */
  audience: 'program' | 'browser'
  handler: EndpointHandler
}

/** The documents are read, never posted to: a mount routes only these methods to them. */
const GET_AND_OPTIONS: readonly string[] = Object.freeze(['GET', 'OPTIONS'])

/** Every endpoint of the server, the documents first. */
const ENDPOINTS: readonly EndpointDefinition[] = [
  { name: 'metadata', path: OAUTH_PATHS.metadata, methods: GET_AND_OPTIONS, audience: 'program', handler: metadata },
  { name: 'jwks', path: OAUTH_PATHS.jwks, methods: GET_AND_OPTIONS, audience: 'program', handler: jwks },
  { name: 'register', path: OAUTH_PATHS.register, methods: '*', audience: 'program', handler: register },
  { name: 'token', path: OAUTH_PATHS.token, methods: '*', audience: 'program', handler: token },
  { name: 'revoke', path: OAUTH_PATHS.revoke, methods: '*', audience: 'program', handler: revoke },
  // No CORS on these two (RFC 9700): they are for browsers' top-level navigation.
  { name: 'authorize', path: OAUTH_PATHS.authorize, methods: '*', audience: 'browser', handler: authorize },
  { name: 'logout', path: OAUTH_PATHS.logout, methods: '*', audience: 'browser', handler: logout },
]

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * The endpoints bound to one server's context. A refusal (`OAuthError`, a body over the
 * limit) becomes its answer here, in one place; anything else is thrown to the mount.
 */
export function bindEndpoints(server: OAuthContext): Record<OAuthEndpointName, OAuthEndpoint> {
  const bound = {} as Record<OAuthEndpointName, OAuthEndpoint>
  for (const { name, path, methods, audience, handler } of ENDPOINTS) {
    bound[name] = Object.freeze({
      name,
      path,
      methods,
      async handler(request: Request, context: EndpointRequestContext = {}) {
        try {
          return await handler(request, { server, clientAddress: context.clientAddress, params: context.params ?? NO_PARAMS })
        } catch (error) {
          return refusalResponse(error)
        }
      },
      serverError:
        audience === 'browser'
          ? () => errorPage('Something went wrong', 'The server could not complete this step. Try again in a moment.', 500)
          : () => oauthError('server_error', 'The server could not complete the request; try again', 500),
    })
  }
  return bound
}

/**
 * The endpoint whose path is `path` (relative to `{auth_url}`), with the raw (still encoded)
 * values of its parameters; undefined when none matches. Methods are not looked at, as
 * `handle()` never did; a mount that routes by method reads `methods`.
 */
export function matchEndpoint(endpoints: readonly OAuthEndpoint[], path: string): { endpoint: OAuthEndpoint; params: Record<string, string> } | undefined {
  const segments = path.split('/')
  for (const endpoint of endpoints) {
    const pattern = endpoint.path.split('/')
    if (pattern.length !== segments.length) continue
    const params: Record<string, string> = {}
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!
      if (!part.startsWith(':')) return part === segment
      params[part.slice(1)] = segment
      return segment !== ''
    })
    if (matches) return { endpoint, params }
  }
  return undefined
}
