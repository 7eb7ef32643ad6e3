// The console's files as createLithoApp serves them (docs/console.md): the page under a CSP
// that allows only its own origin, hashed assets cached for a year with their content types,
// every console path answered with the page (the app routes in the browser), and nothing
// outside the built assets reachable.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleCsp } from '../src/app/console.js'
import { consoleClient } from '../src/oauth-config.js'
import { Browser } from './_browser.js'
import { createHarness, type Harness } from './_harness.js'
import { PASSWORD, REDIRECT, oauthHelpers, pkce } from './_oauth.js'
import { processFixture } from './_process.js'

const dir = mkdtempSync(join(tmpdir(), 'litho-console-assets-'))
let h: Harness
let plain: Harness

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><base href="/console/"><script type="module" src="./assets/index-AbC123.js"></script></head><body></body></html>')
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)')
  writeFileSync(join(dir, 'assets', 'index-XyZ789.css'), 'body{}')
  writeFileSync(join(dir, 'secret.txt'), 'not an asset')
  h = await createHarness({ console: { assetsDir: dir } })
  plain = await createHarness()
})
afterAll(async () => {
  await Promise.all([h.close(), plain.close()])
  rmSync(dir, { recursive: true, force: true })
})

describe('the console page', () => {
  it('is served at /console/ with a CSP that allows only its own origin', async () => {
    const response = await h.fetch('/console/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(await response.text()).toContain('<base href="/console/">')
  })

  it('sends /console on to /console/', async () => {
    const response = await h.fetch('/console')
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('/console/')
  })

  it('answers every console route with the page (SPA fallback)', async () => {
    for (const path of ['/console/designs', '/console/designs/d_1/edit', '/console/keys', '/console/usage']) {
      const response = await h.fetch(path)
      expect(response.status, path).toBe(200)
      expect(await response.text()).toContain('<base href="/console/">')
    }
  })

  it('links to the console from /', async () => {
    const response = await h.fetch('/')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('/console/">Open the Litho Console</a>')
  })

  it('is not served without the option', async () => {
    expect((await plain.fetch('/console/')).status).toBe(404)
  })

  it('names the render and auth origins in connect-src when they differ', () => {
    expect(consoleCsp({ baseUrl: 'https://api.example.com', renderUrl: 'https://render.example.com', authUrl: 'https://api.example.com' })).toContain("connect-src 'self' https://render.example.com;")
  })
})

describe('the console assets', () => {
  it('are served with their content type and cached for a year (their names carry their hash)', async () => {
    const js = await h.fetch('/console/assets/index-AbC123.js')
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(js.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await js.text()).toBe('console.log(1)')
    expect((await h.fetch('/console/assets/index-XyZ789.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  it('path traversal: nothing outside assets/ is reachable', async () => {
    for (const path of ['/console/assets/../secret.txt', '/console/assets/%2e%2e%2fsecret.txt', '/console/assets/..%2Fsecret.txt', '/console/assets/secret.txt', '/console/assets/sub/x.js']) {
      const response = await h.fetch(path)
      expect(await response.text(), path).not.toContain('not an asset')
    }
    expect((await h.fetch('/console/assets/missing-000.js')).status).toBe(404)
  })
})

describe('the console OAuth client', () => {
  it('redirects to {base_url}/console/, and only where that URI would be accepted', () => {
    expect(consoleClient('https://litho.example.com')).toEqual({ clientId: 'litho-console', clientName: 'Litho Console', redirectUris: ['https://litho.example.com/console/'], firstParty: true })
    expect(consoleClient('http://127.0.0.1:3000')?.redirectUris).toEqual(['http://127.0.0.1:3000/console/'])
    expect(consoleClient('http://litho.lan:3000')).toBeNull()
  })
})

describe('a first-party client (the console)', () => {
  let oauth: Harness
  const { authorizeUrl, fetchApp, register } = oauthHelpers(() => oauth)
  beforeAll(async () => {
    oauth = await createHarness({ withOAuth: { clients: [{ clientId: 'own-app', clientName: 'Own app', redirectUris: [REDIRECT], firstParty: true }, { clientId: 'partner', clientName: 'Partner', redirectUris: [REDIRECT] }] } })
  })
  afterAll(() => oauth.close())

  it('gets its code right after the sign-in, without the consent page', async () => {
    const user = await oauth.createUser('pro', PASSWORD)
    const browser = new Browser(fetchApp)
    const url = authorizeUrl('own-app', { code_challenge: pkce().challenge })
    const page = await (await browser.request(url)).text()
    expect(page).toContain('>Sign in</button>')
    const signedIn = await browser.submit(page, url, { email: user.email, password: PASSWORD })
    expect(signedIn.status).toBe(302)
    expect(new URL(signedIn.headers.get('location')!).searchParams.get('code')).toBeTruthy()
    // With the session now open, at once.
    const again = await browser.request(authorizeUrl('own-app', { code_challenge: pkce().challenge }))
    expect(again.status).toBe(302)
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })

  it('consent skipping: a configured client without firstParty, or a registered one claiming it, still asks', async () => {
    const user = await oauth.createUser('pro', PASSWORD)
    const browser = new Browser(fetchApp)
    const url = authorizeUrl('partner', { code_challenge: pkce().challenge })
    const signedIn = await browser.submit(await (await browser.request(url)).text(), url, { email: user.email, password: PASSWORD })
    expect(await signedIn.text()).toContain('>Allow</button>')
    const { client_id } = await register({ firstParty: true, first_party: true })
    const registered = await browser.request(authorizeUrl(client_id, { code_challenge: pkce().challenge }))
    expect(await registered.text()).toContain('>Allow</button>')
  })
})

describe('litho serve', () => {
  it('serves the built console at /console and links to it from /; --no-console and LITHO_CONSOLE=0 leave it and the link out', async () => {
    const fixture = processFixture('litho-console-serve-')
    try {
      const on = fixture.serve(0)
      const url = await on.ready
      expect(on.output()).toContain(`console: ${url}/console/`)
      const page = await fetch(`${url}/console/`)
      expect(page.status).toBe(200)
      const html = await page.text()
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)![1]!
      const js = await fetch(`${url}/console/${script}`)
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(await (await fetch(`${url}/`)).text()).toContain(`<a href="${url}/console/">Open the Litho Console</a>`)
      on.child.kill('SIGKILL')
      for (const [args, env] of [[['--no-console'], {}], [[], { LITHO_CONSOLE: '0' }]] as const) {
        const off = fixture.serve(0, env, [...args])
        const offUrl = await off.ready
        expect((await fetch(`${offUrl}/console/`)).status, JSON.stringify({ args, env })).toBe(404)
        // The landing stays (GET /), without the console's link.
        const landing = await fetch(`${offUrl}/`)
        expect(landing.status).toBe(200)
        expect(await landing.text()).not.toContain('/console/')
        off.child.kill('SIGKILL')
      }
    } finally {
      fixture.cleanup()
    }
  })
})
