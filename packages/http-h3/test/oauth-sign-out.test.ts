// Sign-out (docs/authentication.md): the browser session of the sign-in pages can be ended, from the
// consent page ("Not you? Sign out") or the advertised end_session_endpoint; a GET never signs
// out, a POST needs its CSRF token, and the return address must be registered for the client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, REDIRECT, oauthHelpers, pkce } from './_oauth.js'

let h: Harness
let user: UserRecord
beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

const { fetchApp, register, authorizeUrl, tokensFor } = oauthHelpers(() => h)
const LOGOUT = `${RENDER_URL}/api/v1/auth/oauth2/logout`

/** The page a signed-in browser gets for a fresh authorization request. */
async function open(browser: Browser): Promise<{ page: string; url: string }> {
  const client = await register()
  const url = authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
  return { page: await (await browser.request(url)).text(), url }
}

/** Submits the form whose action is the sign-out endpoint. */
function signOut(browser: Browser, page: string, url: string): Promise<Response> {
  const start = page.indexOf(`<form method="post" action="${LOGOUT}"`)
  expect(start, 'a sign-out form').toBeGreaterThanOrEqual(0)
  return browser.submit(page.slice(start), url, {})
}

describe('sign-out', () => {
  it('after sign-out from the consent page ("Not you? Sign out") the session cookie no longer skips sign-in', async () => {
    const { browser } = await tokensFor(user)
    const stolenCookie = browser.cookies.get('litho_session')!
    const consent = await open(browser)
    expect(consent.page).toContain('>Allow</button>')
    expect(consent.page).toContain('Not you? <button type="submit" class="link">Sign out</button>')
    const out = await signOut(browser, consent.page, consent.url)
    expect(out.status).toBe(200)
    expect(out.headers.get('set-cookie')).toMatch(/^litho_session=; Path=\/api\/v1\/auth\/oauth2; Max-Age=0; HttpOnly; SameSite=Lax/)
    // Back to the sign-in page of the same request, ready for someone else.
    const html = await out.text()
    expect(html).toContain('>Sign in</button>')
    const after = await open(browser)
    expect(after.page).toContain('>Sign in</button>')
    // The server-side session is gone too: the old cookie value no longer works anywhere.
    const replay = new Browser(fetchApp)
    replay.cookies.set('litho_session', stolenCookie)
    expect(await (await open(replay)).page).toContain('>Sign in</button>')
  })

  it('GET shows a confirmation form and never signs out; a POST without its CSRF token is refused', async () => {
    const { browser } = await tokensFor(user)
    const confirm = await browser.request(LOGOUT)
    expect(confirm.status).toBe(200)
    expect(await confirm.text()).toContain('>Sign out</button>')
    expect((await open(browser)).page).toContain('>Allow</button>')
    const forged = await new Browser(fetchApp).request(LOGOUT, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `litho_session=${browser.cookies.get('litho_session')}` }, body: 'csrf=guess' })
    expect(forged.status).toBe(403)
    expect((await open(browser)).page).toContain('>Allow</button>')
  })

  it('returns only to a post_logout_redirect_uri registered for the client, with state', async () => {
    const client = await register()
    const { browser } = await tokensFor(user)
    const confirmUrl = `${LOGOUT}?client_id=${encodeURIComponent(client.client_id)}&post_logout_redirect_uri=${encodeURIComponent(REDIRECT)}&state=bye`
    const back = await browser.submit(await (await browser.request(confirmUrl)).text(), confirmUrl, {})
    expect(back.status).toBe(302)
    expect(back.headers.get('location')).toBe(`${REDIRECT}?state=bye`)
    const evilUrl = `${LOGOUT}?client_id=${encodeURIComponent(client.client_id)}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example/phish')}`
    const evil = await browser.submit(await (await browser.request(evilUrl)).text(), evilUrl, {})
    expect(evil.status).toBe(400)
    expect(evil.headers.get('location')).toBeNull()
  })

  it('is advertised as end_session_endpoint', async () => {
    const metadata = (await (await fetchApp(`${RENDER_URL}/.well-known/oauth-authorization-server/org/acme`)).json()) as Record<string, unknown>
    expect(metadata.end_session_endpoint).toBe(LOGOUT)
  })
})
