// A minimal browser for the authorization endpoint's pages: a cookie jar, no redirects
// followed, and the plain HTML forms filled in the way a person would (docs/connecting-a-client.md: `Email`,
// `Password`, `Sign in`, `Allow`, `Deny`).
import { expect } from 'vitest'

export class Browser {
  readonly cookies = new Map<string, string>()
  constructor(private readonly fetchFn: (url: string, init?: RequestInit) => Promise<Response>) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    const response = await this.fetchFn(url, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const index = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim())
    }
    return response
  }

  /** Submits the page's form with `fields` plus its hidden inputs (and the clicked button). */
  async submit(page: string, pageUrl: string, fields: Record<string, string>): Promise<Response> {
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]
    expect(action, 'the page has a form').toBeTruthy()
    const body = new URLSearchParams()
    for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) body.set(m[1]!, unescape(m[2]!))
    for (const [k, v] of Object.entries(fields)) body.set(k, v)
    return this.request(new URL(unescape(action!), pageUrl).href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  }

  /**
   * Opens `authorizeUrl`, signs in (unless a session exists) and presses Allow or Deny.
   * Returns the final response (a 302 to the client on success).
   */
  async authorize(authorizeUrl: string, credentials: { email: string; password: string }, decision: 'allow' | 'deny' = 'allow'): Promise<Response> {
    let response = await this.request(authorizeUrl)
    let page = await response.text()
    if (page.includes('>Sign in</button>')) {
      expect(page).toContain('<label for="email">Email</label>')
      expect(page).toContain('<label for="password">Password</label>')
      response = await this.submit(page, authorizeUrl, { email: credentials.email, password: credentials.password })
      page = await response.text()
    }
    expect(page, `a consent page (status ${response.status})`).toContain('>Allow</button>')
    expect(page).toContain('>Deny</button>')
    return this.submit(page, authorizeUrl, { decision })
  }
}

function unescape(value: string): string {
  return value.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
}
