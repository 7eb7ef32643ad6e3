// Fuzz: random requests to the built-in authorization server, mounted in the app and through
// its framework-agnostic `handle()`: registration with hostile JSON, the authorization
// endpoint's query, the token and revocation forms with broken client credentials, the
// sign-in and consent forms (on real pending requests and on made-up ones) with random fields
// and cookies, and the metadata, JWKS and protected-resource documents at random paths. No
// request may get a 5xx (but a 503 with Retry-After from a busy password pool) or hang. A
// seeded slice runs in `pnpm test`, the full budget under `pnpm fuzz` (docs/fuzzing.md).
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { budget, report } from '../../core/test/fuzz/_budget.js'
import { assertNoPollution, fail, nastyText, pathSegment, queryString, send, type FuzzRequest } from './_fuzz-http.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, REDIRECT, oauthHelpers, pkce } from './_oauth.js'

const AUTH = '/api/v1/auth/oauth2'

let h: Harness
let user: UserRecord
let clientId: string
let confidential: { client_id: string; client_secret?: string }
let refreshToken: string
const helpers = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  const issued = await helpers.tokensFor(user)
  clientId = issued.client.client_id
  refreshToken = issued.tokens.refresh_token
  confidential = await helpers.register({ token_endpoint_auth_method: 'client_secret_basic', client_name: 'Confidential' })
}, 60_000)
afterAll(() => h?.close())

// ---------------------------------------------------------------------------
// Generators

/** A value that is sometimes the right one (so deeper checks run) and otherwise anything. */
const mostly = <T,>(right: () => T, wrong: fc.Arbitrary<T>): fc.Arbitrary<() => T> => fc.oneof({ weight: 2, arbitrary: fc.constant(right) }, { weight: 3, arbitrary: wrong.map((w) => () => w) })

/** A JSON value of the wrong type for a string field, or a hostile string. */
const anyJson = fc.oneof(nastyText, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, 0, -1, 1e308, true, [], {}, ['a']))

/** A redirect URI of every shape. */
const redirectUri = fc.oneof(
  fc.constantFrom(
    REDIRECT, 'http://127.0.0.1/cb', 'http://localhost:3000/cb', 'http://[::1]:8080/cb', 'https://app.example.com/cb', 'https://app.example.com/cb#frag', 'https://user:pass@app.example.com/cb', 'http://app.example.com/cb',
    'com.example.app:/oauth', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', '//evil.example', '/relative', '', ' ', 'https://', 'https://%ZZ/', 'https://ex ample.com/', 'http://127.0.0.1:99999/cb', `https://a.example/${'x'.repeat(5_000)}`,
  ),
  fc.webUrl(),
  anyJson,
)
const clientName = fc.oneof(fc.constantFrom('App', '', ' ', 'evil\u202e.example', 'a\u0000b', 'tab\there', 'line\nbreak', '\u200f\u2066x\u2069', '<script>alert(1)</script>', '🎉 app', 'x'.repeat(300)), nastyText, anyJson)

const registerBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          client_name: clientName,
          redirect_uris: fc.oneof({ weight: 2, arbitrary: fc.constant([REDIRECT]) }, { weight: 3, arbitrary: fc.array(redirectUri, { maxLength: 4 }) }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: fc.constant(Array.from({ length: 500 }, (_, i) => `http://127.0.0.1/${i}`)) }),
          grant_types: fc.oneof(fc.subarray(['authorization_code', 'refresh_token', 'client_credentials', 'password', 'implicit']), anyJson),
          response_types: fc.oneof(fc.subarray(['code', 'token', 'id_token']), anyJson),
          token_endpoint_auth_method: fc.oneof(fc.constantFrom('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'), anyJson),
          scope: fc.oneof(fc.constantFrom('read', 'write', 'read write', 'admin', ''), anyJson),
          client_uri: redirectUri,
          logo_uri: redirectUri,
          software_id: anyJson,
        },
        { requiredKeys: [] },
      )
      .map((b) => JSON.stringify(b)),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('', 'null', '[]', '{', '{"__proto__":{"polluted":1},"redirect_uris":["http://127.0.0.1/cb"]}', `{"client_name":"${'a'.repeat(200_000)}"}`, `${'['.repeat(10_000)}`) },
  { weight: 1, arbitrary: nastyText },
)
const bodyType = fc.constantFrom<string | undefined>('application/json', 'application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', undefined)
const orgQuery = fc.oneof({ weight: 4, arbitrary: fc.constant('org=acme') }, { weight: 1, arbitrary: queryString(fc.constantFrom('org'), nastyText, 2) })

const register = fc.tuple(registerBody, bodyType, orgQuery, fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'OPTIONS')).map(([body, type, org, method]): FuzzRequest => ({
  method,
  path: `${AUTH}/register${org ? `?${org}` : ''}`,
  headers: type ? { 'content-type': type } : {},
  ...(method === 'GET' || method === 'OPTIONS' ? {} : { body }),
}))

const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'prompt', 'org', 'request_uri', 'nonce'] as const
/** An authorization query: the right parameters with some replaced, duplicated or garbled. */
const authorizeQuery = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...AUTHORIZE_PARAMS), fc.oneof(nastyText, fc.constantFrom('code', 'token', 'S256', 'plain', 'none', 'read', 'read write admin', RENDER_URL, `${RENDER_URL}/api/mcp`, 'https://other.example', REDIRECT)), { maxKeys: 4 }),
    queryString(fc.constantFrom(...AUTHORIZE_PARAMS), nastyText, 3),
    fc.boolean(),
  )
  .map(([replaced, extra, withClient]) => {
    const url = new URL(helpers.authorizeUrl(withClient ? clientId : 'nobody', { code_challenge: pkce().challenge }))
    for (const [k, v] of Object.entries(replaced)) url.searchParams.set(k, v.replace(/[\ud800-\udfff]/g, '\ufffd'))
    return `${url.search.slice(1)}${extra ? `&${extra}` : ''}`
  })
const authorize = fc.tuple(authorizeQuery, fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'DELETE')).map(([query, method]): FuzzRequest => ({ method, path: `${AUTH}/authorize?${query}` }))

/** Client credentials in an Authorization header: well formed, malformed and hostile. */
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
const authorization = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      () => `Basic ${b64('abc:%ZZ')}`, () => `Basic ${b64('%ZZ:abc')}`, () => `Basic ${b64('no-colon')}`, () => 'Basic !!!notbase64', () => 'Basic YWJj', () => 'Basic ', () => 'Basic', () => 'basic YTpi',
      () => `Basic ${b64(`${'a'.repeat(50_000)}:b`)}`, () => `Basic ${b64(`${encodeURIComponent(confidential.client_id)}:${encodeURIComponent(confidential.client_secret ?? '')}`)}`,
      () => `Basic ${b64(`${encodeURIComponent(confidential.client_id)}:wrong`)}`, () => `Basic ${b64(`${clientId}:`)}`, () => `Basic ${b64('\u0000:\u0000')}`, () => `Basic ${b64('a:b')}===`, () => 'Bearer abc', () => 'Digest x', () => 'Basic YTpi, Basic YzpkZQ==',
    ),
  },
  { weight: 1, arbitrary: fc.tuple(nastyText, nastyText).map(([id, secret]) => () => `Basic ${b64(`${id}:${secret}`)}`) },
  { weight: 1, arbitrary: nastyText.map((s) => () => `Basic ${s.replace(/[^\x20-\x7e]/g, '')}`) },
)
const TOKEN_FIELDS = ['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'code_verifier', 'refresh_token', 'resource', 'scope', 'token', 'token_type_hint'] as const
const tokenField = fc.oneof(
  nastyText,
  fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:jwt-bearer', 'access_token', RENDER_URL, REDIRECT, 'read', 'read write admin'),
  fc.constant('').map(() => clientId),
  fc.constant('').map(() => refreshToken),
)
/** A form, or something that is not one. */
const tokenBody = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.tuple(fc.constantFrom(...TOKEN_FIELDS), tokenField), { maxLength: 7 }).map((pairs) => new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v.replace(/[\ud800-\udfff]/g, '\ufffd')])).toString()) },
  { weight: 1, arbitrary: queryString(nastyText, nastyText) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('', '%ZZ=%ZZ', 'grant_type=refresh_token&grant_type=authorization_code', `refresh_token=${'a'.repeat(100_000)}`, '&&&==&') },
)
const formType = fc.constantFrom<string | undefined>('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/json', 'text/plain', 'multipart/form-data', undefined)
const tokenLike = (endpoint: 'token' | 'revoke') =>
  fc.tuple(tokenBody, formType, authorization, orgQuery, fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'OPTIONS')).map(([body, type, auth, org, method]): FuzzRequest => ({
    method,
    path: `${AUTH}/${endpoint}${org ? `?${org}` : ''}`,
    headers: { ...(type ? { 'content-type': type } : {}), ...(auth ? { authorization: auth() } : {}) },
    ...(method === 'GET' || method === 'OPTIONS' ? {} : { body }),
  }))

/** A sign-in or consent form: either on a real pending request (its id and CSRF cookie), or made up. */
interface FormCase {
  /** Start a real authorization first; `signedIn` also signs in, so the consent step is reached. */
  real: 'none' | 'pending' | 'signedIn'
  fields: Array<[string, () => string]>
  cookie: (pending: Pending | undefined) => string | undefined
  type: string | undefined
}
interface Pending {
  requestId: string
  csrf: string
  session?: string
}
const FORM_FIELDS = ['step', 'request_id', 'csrf', 'email', 'password', 'decision', 'client_id', 'post_logout_redirect_uri', 'state'] as const
const formValue = (name: (typeof FORM_FIELDS)[number]): fc.Arbitrary<() => string> => {
  switch (name) {
    case 'step':
      return fc.oneof(fc.constantFrom('sign-in', 'consent', 'sign-out').map((v) => () => v), nastyText.map((v) => () => v))
    case 'decision':
      return fc.oneof(fc.constantFrom('allow', 'deny').map((v) => () => v), nastyText.map((v) => () => v))
    case 'email':
      // Mostly the real user: an unknown email is checked against a full-cost dummy hash.
      return fc.oneof({ weight: 4, arbitrary: fc.constant(() => user.email) }, { weight: 1, arbitrary: fc.constantFrom('', ' ', `${'a'.repeat(10_000)}@example.com`, 'USER@EXAMPLE.COM').map((v) => () => v) })
    case 'password':
      return fc.oneof(fc.constant(() => PASSWORD), fc.constantFrom('', 'wrong', 'x'.repeat(100_000), '\u0000', '🎉').map((v) => () => v))
    default:
      return nastyText.map((v) => () => v)
  }
}
const formCase: fc.Arbitrary<FormCase> = fc.record({
  real: fc.constantFrom('none', 'pending', 'pending', 'signedIn', 'signedIn'),
  fields: fc.array(fc.constantFrom(...FORM_FIELDS).chain((name) => formValue(name).map((v) => [name, v] as [string, () => string])), { maxLength: 3 }),
  cookie: fc.oneof(
    { weight: 4, arbitrary: fc.constant((p: Pending | undefined) => (p ? `litho_csrf=${p.csrf}${p.session ? `; litho_session=${p.session}` : ''}` : undefined)) },
    { weight: 1, arbitrary: fc.constant(() => undefined) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('litho_csrf', 'litho_session', '', '=', 'a b'), nastyText).map(([k, v]) => (p: Pending | undefined) => `${k}=${v.replace(/[^\x20-\x7e]/g, '')}${p ? `; litho_csrf=${p.csrf}` : ''}`) },
    { weight: 1, arbitrary: fc.constantFrom(() => 'litho_csrf', () => ';;;', () => `litho_csrf=${'a'.repeat(20_000)}`, () => 'litho_csrf=%ZZ; litho_session=%ZZ') },
  ),
  type: fc.oneof({ weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: formType }),
})

/** Opens a real authorization (and signs in for `signedIn`): the ids a browser would hold. */
async function startAuthorization(real: FormCase['real']): Promise<Pending | undefined> {
  if (real === 'none') return undefined
  const page = await h.fetch(helpers.authorizeUrl(clientId, { code_challenge: pkce().challenge }))
  const html = await page.text()
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1]
  const csrf = /litho_csrf=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1]
  if (!requestId || !csrf) throw new Error(`the authorization page had no request_id or CSRF cookie (status ${page.status})`)
  if (real === 'pending') return { requestId, csrf }
  const signIn = await h.fetch(`${AUTH}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `litho_csrf=${csrf}` },
    body: new URLSearchParams({ step: 'sign-in', request_id: requestId, csrf, email: user.email, password: PASSWORD }),
  })
  await signIn.arrayBuffer()
  const session = /litho_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1]
  // Sign-in limits may refuse it after many cases: then the consent step is reached without a session.
  return { requestId, csrf, ...(session ? { session } : {}) }
}

async function formRequest(c: FormCase, path: 'authorize' | 'logout'): Promise<FuzzRequest> {
  const pending = await startAuthorization(c.real)
  const body = new URLSearchParams()
  if (pending) {
    body.set('request_id', pending.requestId)
    body.set('csrf', pending.csrf)
    body.set('step', pending.session ? 'consent' : 'sign-in')
    body.set('email', user.email)
    body.set('password', PASSWORD)
    body.set('decision', 'allow')
  }
  for (const [name, value] of c.fields) body.set(name, value().replace(/[\ud800-\udfff]/g, '\ufffd'))
  const cookie = c.cookie(pending)
  return { method: 'POST', path: `${AUTH}/${path}`, headers: { ...(c.type ? { 'content-type': c.type } : {}), ...(cookie ? { cookie } : {}) }, body: body.toString() }
}

const documents = fc
  .tuple(
    fc.constantFrom('metadata', 'metadata', 'jwks', 'jwks', 'protected', 'protected-mcp', 'protected-other'),
    fc.oneof({ weight: 1, arbitrary: fc.constant('acme') }, { weight: 4, arbitrary: pathSegment(nastyText) }),
    fc.constantFrom('GET', 'GET', 'GET', 'OPTIONS', 'HEAD', 'POST'),
  )
  .map(([kind, org, method]): FuzzRequest => {
    const path =
      kind === 'metadata' ? `/.well-known/oauth-authorization-server/org/${org}`
      : kind === 'jwks' ? `/org/${org}/jwks.json`
      : kind === 'protected' ? '/.well-known/oauth-protected-resource'
      : kind === 'protected-mcp' ? '/.well-known/oauth-protected-resource/api/mcp'
      : `/.well-known/oauth-protected-resource/${org}`
    return { method, path, headers: method === 'OPTIONS' ? { origin: 'https://evil.example', 'access-control-request-method': 'GET' } : {} }
  })

// ---------------------------------------------------------------------------
// The properties

/** No 5xx but a busy password pool's 503 with Retry-After; no hang; no polluted prototype. */
async function runCase(request: FuzzRequest, via: (request: Request) => Promise<Response | undefined>, counts: Record<string, number>): Promise<void> {
  const { response, bytes } = await send(async (r) => (await via(r)) ?? new Response(null, { status: 404 }), request)
  if (response.status >= 500 && !(response.status === 503 && response.headers.get('retry-after'))) fail(request, response.status, 'a server error', bytes)
  assertNoPollution(request)
  counts[response.status] = (counts[response.status] ?? 0) + 1
}

const viaApp = async (request: Request): Promise<Response> => h.app.fetch(request)
/** The same server without h3 in front: `handle()` for any framework (its paths sit at the root here). */
const viaHandle = (request: Request) => h.oauth!.handle(request)

const PLAIN = {
  'POST register': register,
  'GET authorize': authorize,
  'POST token': tokenLike('token'),
  'POST revoke': tokenLike('revoke'),
  'metadata, JWKS and protected-resource documents': documents,
} as const

describe('fuzz: the authorization server', () => {
  for (const [name, request] of Object.entries(PLAIN)) {
    for (const [where, via] of [['in the app', viaApp], ['through handle()', viaHandle]] as const) {
      it(`${name} ${where}: no 5xx, no hang`, async () => {
        const counts: Record<string, number> = {}
        const params = budget('sample', 40, 2_000)
        const startedAt = performance.now()
        await fc.assert(fc.asyncProperty(request, (r) => runCase(r, via, counts)), params)
        report(`auth ${name} ${where}`, params.numRuns, startedAt, counts)
      })
    }
  }

  for (const path of ['authorize', 'logout'] as const) {
    it(`the sign-in, consent and sign-out forms on /${path}, on real and made-up requests, with random fields and cookies: no 5xx, no hang`, async () => {
      const counts: Record<string, number> = {}
      // Each case may start an authorization and sign in first (scrypt): fewer cases.
      const params = budget('sample', 20, 500)
      const startedAt = performance.now()
      await fc.assert(fc.asyncProperty(formCase, async (c) => runCase(await formRequest(c, path), viaApp, counts)), params)
      report(`auth forms /${path}`, params.numRuns, startedAt, counts)
    })
  }
})
