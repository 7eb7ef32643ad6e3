// One `litho serve` (the real CLI, a temp data dir, a seeded user and design) and one headless
// Chromium (Debian's /usr/bin/chromium, never a downloaded one) for a test file.
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { processFixture } from '../../http-h3/test/_process.js'

export const EMAIL = 'ann@example.com'
export const PASSWORD = 'correct horse battery staple'
/** Where the screenshots go: docs/console/ with LITHO_SCREENSHOTS=1 (to refresh the docs), else a temp dir, so a test run leaves the tree clean. */
export const SHOTS = process.env.LITHO_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/console/', import.meta.url)) : join(tmpdir(), 'litho-console-screenshots')

export interface ConsoleFixture {
  url: string
  key: string
  renderCode: string
  browser: Browser
  page: Page
  /** The page's console errors so far (CSP violations would be among them). */
  errors: string[]
  litho: ReturnType<typeof processFixture>['litho']
  close(): Promise<void>
}

export async function startConsole(prefix: string, env: Record<string, string> = {}): Promise<ConsoleFixture> {
  const fixture = processFixture(prefix)
  const { key, renderCode } = await fixture.seed(EMAIL, PASSWORD)
  const url = await fixture.serve(0, env).ready
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] })
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  mkdirSync(SHOTS, { recursive: true })
  return {
    url,
    key,
    renderCode,
    browser,
    page,
    errors,
    litho: fixture.litho,
    async close() {
      await browser.close()
      fixture.cleanup()
    },
  }
}

/** Opens the console and signs in through the authorization server's own sign-in page. */
export async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/console/`)
  await page.getByLabel('Email').fill(EMAIL)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  // The console is the service's own client: no consent page.
  const designs = page.getByRole('heading', { name: 'Designs', level: 1 })
  await designs.waitFor()
}

/** An access token for EMAIL from the server's OAuth flow (a registered loopback client), to check through the API what the console did. */
export async function apiToken(url: string): Promise<string> {
  const { createHash, randomBytes } = await import('node:crypto')
  const { Browser: FormBrowser } = await import('../../http-h3/test/_browser.js')
  const metadata = (await (await fetch(`${url}/.well-known/oauth-protected-resource`)).json()) as { authorization_servers: string[] }
  const org = new URL(metadata.authorization_servers[0]!).pathname.split('/').pop()!
  const redirectUri = 'http://127.0.0.1:7777/cb'
  const registered = await fetch(`${url}/api/v1/auth/oauth2/register?org=${org}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }) })
  const { client_id } = (await registered.json()) as { client_id: string }
  const verifier = randomBytes(32).toString('base64url')
  const authorize = new URL(`${url}/api/v1/auth/oauth2/authorize`)
  for (const [k, v] of Object.entries({ client_id, redirect_uri: redirectUri, response_type: 'code', state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })) authorize.searchParams.set(k, v)
  const redirect = await new FormBrowser((u, init) => fetch(u, init)).authorize(authorize.href, { email: EMAIL, password: PASSWORD })
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
  const tokens = await fetch(`${url}/api/v1/auth/oauth2/token?org=${org}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id, code_verifier: verifier }) })
  return ((await tokens.json()) as { access_token: string }).access_token
}

/**
 * Runs in the page (`page.evaluate(PIXELS_DIFFERING, [a, b])`; the tests' own types have no DOM):
 * decodes both image URLs and counts the pixels whose colour differs.
 */
export const PIXELS_DIFFERING = `async ([a, b]) => {
  const pixels = async (src) => {
    const image = new Image()
    image.src = src
    await image.decode()
    const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight)
    const context = canvas.getContext('2d')
    context.drawImage(image, 0, 0)
    return context.getImageData(0, 0, canvas.width, canvas.height).data
  }
  const [x, y] = await Promise.all([pixels(a), pixels(b)])
  if (x.length !== y.length) return x.length
  let count = 0
  for (let i = 0; i < x.length; i += 4) if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) count++
  return count
}`
