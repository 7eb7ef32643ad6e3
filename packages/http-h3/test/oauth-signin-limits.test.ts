// The sign-in form's limits (docs/security.md): charged atomically before any password is hashed,
// successes counted too, and failures that slow down one (email, address) pair rather than
// lock the account for everyone. Through the app, with client addresses from X-Forwarded-For.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPasswordPool, hashPassword } from '@litho/auth-adapters'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers, pkce } from './_oauth.js'

let h: Harness
let checks = 0
// A real pool with a queue long enough that only the rate limits bound the checks here.
const pool = createPasswordPool({ threads: 1, maxQueue: 100 })
beforeAll(async () => {
  h = await createHarness({
    trustProxy: true,
    withOAuth: {
      passwordVerifier: {
        verify: (password, stored) => {
          checks++
          return pool.verify(password, stored)
        },
        close: () => pool.close(),
      },
    },
  })
})
afterAll(async () => {
  await h.close()
  await pool.close()
})

const { fetchApp, register, authorizeUrl } = oauthHelpers(() => h)

/** A browser whose requests come from `address`. */
function browserAt(address: string): Browser {
  return new Browser((url, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('x-forwarded-for', address)
    return fetchApp(url, { ...init, headers })
  })
}

/** Opens the sign-in page of a fresh authorization request; returns the page and its URL. */
async function signInPage(browser: Browser): Promise<{ page: string; url: string }> {
  const client = await register()
  const url = authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
  const page = await (await browser.request(url)).text()
  expect(page).toContain('>Sign in</button>')
  return { page, url }
}

describe('sign-in limits', () => {
  it('40 simultaneous wrong passwords for one account are checked at most 10 times', async () => {
    const target = await h.createUser('free', PASSWORD)
    const browser = browserAt('192.0.2.10')
    const { page, url } = await signInPage(browser)
    const before = checks
    const responses = await Promise.all(Array.from({ length: 40 }, () => browser.submit(page, url, { email: target.email, password: 'wrong guess' })))
    const statuses = responses.map((r) => r.status)
    expect(checks - before).toBeLessThanOrEqual(10)
    expect(statuses.filter((s) => s === 401).length).toBe(checks - before)
    expect(statuses.filter((s) => s === 429).length).toBe(40 - (checks - before))
    const limited = responses.find((r) => r.status === 429)!
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await limited.text()).toContain('Too many sign-in attempts')
  })

  it('an unknown email costs one password check through the same pool, like a known one (no timing oracle)', async () => {
    const known = await h.createUser('free', PASSWORD)
    const browser = browserAt('192.0.2.33')
    for (const email of [known.email, 'nobody-at-all@example.com']) {
      const { page, url } = await signInPage(browser)
      const before = checks
      const response = await browser.submit(page, url, { email, password: 'wrong guess' })
      expect(response.status).toBe(401)
      expect(await response.text()).toContain('Wrong email or password.')
      expect(checks - before).toBe(1)
    }
  })

  it("a stranger's failures do not lock the owner out from another address", async () => {
    const owner = await h.createUser('free', PASSWORD)
    const stranger = browserAt('198.51.100.66')
    const attack = await signInPage(stranger)
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) {
      statuses.push((await stranger.submit(attack.page, attack.url, { email: owner.email, password: `guess-${i}` })).status)
      h.clock.advance(1_000)
    }
    // The stranger is slowed down: after 3 free failures each one waits longer.
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401])
    expect(statuses).toContain(429)
    // The owner, from home, signs in at once with the right password.
    const home = browserAt('203.0.113.5')
    const mine = await signInPage(home)
    const consent = await home.submit(mine.page, mine.url, { email: owner.email, password: PASSWORD })
    expect(consent.status).toBe(200)
    expect(await consent.text()).toContain('>Allow</button>')
  })

  it('failures of one (email, address) pair wait longer and longer; a success clears them', async () => {
    const user = await h.createUser('free', PASSWORD)
    const browser = browserAt('192.0.2.77')
    const { page, url } = await signInPage(browser)
    const submit = (password: string) => browser.submit(page, url, { email: user.email, password })
    for (let i = 0; i < 3; i++) expect((await submit('wrong')).status).toBe(401)
    expect((await submit('wrong')).status).toBe(401) // the 4th failure: the next attempt waits 1 s
    const waits: number[] = []
    for (let i = 0; i < 4; i++) {
      const limited = await submit('wrong')
      expect(limited.status).toBe(429)
      const wait = Number(limited.headers.get('retry-after'))
      waits.push(wait)
      h.clock.advance(wait * 1000)
      expect((await submit('wrong')).status).toBe(401)
    }
    expect(waits).toEqual([1, 2, 4, 8])
    // Even the right password waits its turn, then works and forgets the failures.
    expect((await submit(PASSWORD)).status).toBe(429)
    h.clock.advance(16_000)
    expect((await submit(PASSWORD)).status).toBe(200)
    const fresh = browserAt('192.0.2.77')
    const again = await signInPage(fresh)
    expect((await fresh.submit(again.page, again.url, { email: user.email, password: 'typo' })).status).toBe(401)
  })

  it('successful sign-ins count against the address too', async () => {
    h.clock.advance(900_000) // a fresh window
    const user = await h.createUser('free', PASSWORD)
    const statuses: number[] = []
    for (let i = 0; i < 61; i++) {
      const browser = browserAt('192.0.2.200')
      const { page, url } = await signInPage(browser)
      statuses.push((await browser.submit(page, url, { email: user.email, password: PASSWORD })).status)
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true)
    expect(statuses[60]).toBe(429)
  })

  it('sign-ins beyond the hashing queue get the page with 503 and Retry-After at once, and cost no attempt', async () => {
    const busyPool = createPasswordPool({ threads: 1, maxQueue: 0 })
    const busy = await createHarness({ trustProxy: true, withOAuth: { passwordVerifier: busyPool } })
    try {
      const helpers = oauthHelpers(() => busy)
      const user = await busy.createUser('free')
      // A slower hash, so the burst arrives while the first one runs.
      await busy.accounts.updateUser({ ...user, passwordHash: await hashPassword(PASSWORD, { N: 2 ** 15, r: 8, p: 1 }) })
      const client = await helpers.register()
      const attempt = async (address: string) => {
        const browser = new Browser((url, init = {}) => {
          const headers = new Headers(init.headers)
          headers.set('x-forwarded-for', address)
          return helpers.fetchApp(url, { ...init, headers })
        })
        const url = helpers.authorizeUrl(client.client_id, { code_challenge: pkce().challenge })
        const page = await (await browser.request(url)).text()
        return browser.submit(page, url, { email: user.email, password: 'wrong guess' })
      }
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => attempt(`192.0.2.${100 + i}`)))
      const refused = responses.filter((r) => r.status === 503)
      expect(responses.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(1)
      expect(refused.length).toBeGreaterThanOrEqual(1)
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        expect(r.headers.get('content-type')).toMatch(/text\/html/)
        expect(await r.text()).toContain('The server is busy signing other people in')
      }
      // Refused attempts were given back: the account's window holds only the checked ones.
      const window = `rl900.${Math.floor(busy.clock.now().getTime() / 900_000)}`
      const subject = `signin.e.${createHash('sha256').update(user.email).digest('base64url').slice(0, 32)}`
      expect(await busy.meter.usage({ subject, window })).toBe(6 - refused.length)
    } finally {
      await busy.close()
      await busyPool.close()
    }
  })
})

describe('registration limits', () => {
  it('a flood of anonymous client registrations from one address: the 31st in an hour gets 429 with Retry-After 3600, another address still registers', async () => {
    const registerFrom = (address: string) =>
      fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ client_name: 'flood', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' }),
      })
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await registerFrom('198.51.100.77')).status)
    expect(statuses.every((s) => s === 201)).toBe(true)
    const refused = await registerFrom('198.51.100.77')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('3600')
    expect(await refused.json()).toMatchObject({ error: 'invalid_request' })
    expect((await registerFrom('198.51.100.78')).status).toBe(201)
  })
})
