// The authorization server's routes are mounted from its own route table (`oauth.endpoints`):
// every endpoint at its path with its methods, its path parameters percent-decoded as
// `oauth.handle()` decodes them, and a parameter that does not decode refused with a 400.
import { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext } from '../src/routes/app-context.js'
import { mountRoutes } from '../src/routes/mount-routes.js'
import { jwksRoute } from '../src/routes/oauth-routes.js'
import { ROUTES } from '../src/routes/table.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'

let h: Harness
beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
})
afterAll(() => h.close())

const snapshot = async (response: Response | undefined) => response && { status: response.status, body: await response.text() }

describe('the routes of the authorization server', () => {
  it('mount every endpoint of oauth.endpoints at its path: the documents by GET (and their own OPTIONS), the others by every method', () => {
    for (const endpoint of h.oauth!.endpoints) {
      const routes = ROUTES.filter((route) => route.path === endpoint.path)
      expect(routes, endpoint.name).toHaveLength(1)
      const [route] = routes
      if (endpoint.methods === '*') expect(route!.method, endpoint.name).toBe('ALL')
      else expect([route!.method, route!.cors?.kind === 'self' ? 'OPTIONS' : undefined], endpoint.name).toEqual(endpoint.methods)
    }
  })

  it('pass the org percent-decoded, as handle() does: %2F is a slash in the org id, %6D an m', async () => {
    for (const path of ['/org/a%2Fb/jwks.json', '/.well-known/oauth-authorization-server/org/a%2Fb', '/org/ac%6De/jwks.json']) {
      const mounted = await snapshot(await h.fetch(path))
      expect(mounted, path).toEqual(await snapshot(await h.oauth!.handle(new Request(`${RENDER_URL}${path}`))))
    }
    expect(await (await h.fetch('/org/a%2Fb/jwks.json')).json()).toEqual({ error: 'not_found', error_description: 'unknown org "a/b"' })
    expect((await h.fetch('/org/ac%6De/jwks.json')).status).toBe(200)
  })

  it('refuse an org that does not decode (%ZZ) with a 400: h3 before routing, or the route itself where malformed paths reach it', async () => {
    // Served by the app: h3 refuses the path before any route runs (Litho's error body, as for every path).
    expect((await h.fetch('/org/%ZZ/jwks.json')).status).toBe(400)
    // Mounted on an app that lets malformed paths through: the answer of handle().
    const options = { designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, signer: h.signer, renderer: { render: async () => { throw new Error('unused') } }, renderUrl: RENDER_URL, oauth: h.oauth! }
    const context = createAppContext(options, { renderUrl: RENDER_URL, baseUrl: RENDER_URL, authUrl: RENDER_URL }, () => '{}')
    const lenient = mountRoutes(new H3({ allowMalformedURL: true }), [jwksRoute], context)
    for (const path of ['/org/%ZZ/jwks.json', '/org/%E0%A4%A/jwks.json']) {
      const response = await lenient.request(path)
      expect(response.status, path).toBe(400)
      expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'The org in the path is not valid percent-encoding (% and two hex digits, UTF-8)' })
      expect(await snapshot(await h.oauth!.handle(new Request(`${RENDER_URL}${path}`)))).toMatchObject({ status: 400 })
    }
  })
})
