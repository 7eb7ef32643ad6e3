// Smaller findings of an outside security probe, each named after what it stops: a
// client name that reverses the consent sentence, a refresh replay that forks the token chain,
// malformed Basic credentials and a used consent form that gave 500 with a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, form, oauthHelpers, pkce } from './_oauth.js'

let h: Harness
let user: UserRecord
beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

const { fetchApp, register, authorizeUrl, tokensFor, tokenRequest, api } = oauthHelpers(() => h)
const registerRaw = (body: Record<string, unknown>) =>
  fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none', ...body }) })

describe('client names', () => {
  it('a client_name with U+202E (or any control or format character) is refused at registration', async () => {
    for (const name of ['Helper \u202E', 'Helper\u200F', 'Help\u2066er\u2069', 'Null\u0000', 'Line\nbreak', 'Zero\u200Bwidth', 'Sep\u2028arator']) {
      const response = await registerRaw({ client_name: name })
      expect(response.status, JSON.stringify(name)).toBe(400)
      const body = (await response.json()) as { error: string; error_description: string }
      expect(body.error).toBe('invalid_client_metadata')
      expect(body.error_description).toMatch(/^client_name must not contain control or format characters \(U\+[0-9A-F]{4} at position \d+\)$/)
    }
    // Letters of every script are fine.
    expect((await registerRaw({ client_name: 'Ассистент — مساعد 🤖' })).status).toBe(201)
  })

  it('the consent page isolates the client name (<bdi>), so it cannot reorder the sentence around it', async () => {
    const client = await register({ client_name: 'مساعد' })
    const browser = new Browser(fetchApp)
    const url = authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
    const page = await (await browser.request(url)).text()
    expect(page).toContain('<bdi>مساعد</bdi>')
    const consent = await (await browser.submit(page, url, { email: user.email, password: PASSWORD })).text()
    expect(consent).toContain('<h1>Allow <bdi>مساعد</bdi>?</h1>')
    expect(consent).toContain('<strong><bdi>مساعد</bdi></strong> (returning to <code><bdi>127.0.0.1:8090</bdi></code>)')
  })
})

describe('refresh replay', () => {
  it('replaying a rotated refresh token inside the grace window returns the same successor pair, never a second chain', async () => {
    const { client, tokens } = await tokensFor(user)
    const refresh = (token: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id })
    // Two hosts' tabs refresh at the same moment, and one retries a little later.
    const [a, b] = await Promise.all([refresh(tokens.refresh_token), refresh(tokens.refresh_token)])
    expect([a.status, b.status]).toEqual([200, 200])
    const first = (await a.json()) as { access_token: string; refresh_token: string }
    expect(await b.json()).toEqual(first)
    h.clock.advance(30_000)
    const retried = await refresh(tokens.refresh_token)
    expect(retried.headers.get('cache-control')).toBe('no-store')
    expect(await retried.json()).toEqual(first)
    // The one chain goes on; reuse after the window ends it, for everyone.
    const next = (await (await refresh(first.refresh_token)).json()) as { refresh_token: string }
    h.clock.advance(61_000)
    expect((await refresh(tokens.refresh_token)).status).toBe(400)
    expect((await refresh(next.refresh_token)).status).toBe(400)
    expect((await api('/designs/v2', first.access_token)).status).toBe(401)
  })
})

describe('no 500 for a malformed request', () => {
  it('malformed Basic client credentials on /token and /revoke answer 401 invalid_client, not 500', async () => {
    const basic = (raw: string) => `Basic ${raw}`
    const cases = [basic(Buffer.from('abc:%ZZ').toString('base64')), basic(Buffer.from('%E0%A4%A:secret').toString('base64')), basic('not*base64!'), basic('YWJj'), basic(Buffer.from('no-colon').toString('base64')), 'Basic ', basic('YWJjOmRlZg')]
    for (const path of ['token', 'revoke']) {
      for (const authorization of cases) {
        const response = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/${path}?org=acme`, { ...form({ grant_type: 'authorization_code', code: 'x', token: 'x' }), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization } })
        expect(response.status, `${path} ${authorization}`).toBe(401)
        const body = (await response.json()) as { error: string; error_description: string }
        expect(body.error).toBe('invalid_client')
        expect(body.error_description).not.toMatch(/URIError|at .*\.ts/)
      }
    }
  })

  it('posting an already-used consent form answers the "sign-in expired" page, not 500', async () => {
    const client = await register()
    const browser = new Browser(fetchApp)
    const url = authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
    const signIn = await (await browser.request(url)).text()
    const consent = await (await browser.submit(signIn, url, { email: user.email, password: PASSWORD })).text()
    expect((await browser.submit(consent, url, { decision: 'allow' })).status).toBe(302)
    for (const page of [consent, signIn]) {
      const again = await browser.submit(page, url, page === consent ? { decision: 'allow' } : { email: user.email, password: PASSWORD })
      expect(again.status).toBe(400)
      expect(await again.text()).toContain('Sign-in expired')
    }
  })
  it('a sign-in form with a 10,000-character email answers the sign-in page with 400, not 500 (the account store refuses emails over 320 characters)', async () => {
    const client = await register()
    const browser = new Browser(fetchApp)
    const url = authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
    const signIn = await (await browser.request(url)).text()
    const response = await browser.submit(signIn, url, { email: `${'a'.repeat(10_000)}@example.com`, password: PASSWORD })
    expect(response.status).toBe(400)
    const page = await response.text()
    expect(page).toContain('at most 320 characters')
    expect(page).not.toContain('a'.repeat(400))
    // The same form still signs in with the real email.
    const consent = await browser.submit(signIn, url, { email: user.email, password: PASSWORD })
    expect(await consent.text()).toContain('>Allow</button>')
  })
})
