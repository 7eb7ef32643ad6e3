// The API reference at /docs (docs/http-reference.md, "API reference"): Swagger UI served from
// the installed swagger-ui-dist over the app's own /openapi.json, every file it names local and
// fetchable, a CSP that allows scripts from this origin only; on in `litho serve` unless
// --no-docs or LITHO_DOCS=0; rendered by a real Chromium without a CSP violation.
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { processFixture } from './_process.js'

let h: Harness
let plain: Harness
beforeAll(async () => {
  h = await createHarness({ docs: true })
  plain = await createHarness()
})
afterAll(async () => {
  await Promise.all([h.close(), plain.close()])
})

/** The src and href values of a page's script and link tags. */
const references = (html: string) => [...html.matchAll(/<(?:script|link)\b[^>]{0,300}?\b(?:src|href)="([^"]{0,500})"/g)].map((m) => m[1]!).filter((ref) => ref !== 'data:,')

describe('GET /docs', () => {
  it('is a page whose scripts and stylesheets are all local paths that answer 200 with their types', async () => {
    const page = await h.fetch('/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await page.text()
    const refs = references(html)
    expect(refs.sort()).toEqual(['/docs/start.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css'])
    for (const ref of refs) {
      expect(ref, 'a path on this origin, not //host or a scheme').toMatch(/^\/[a-z]/)
      const file = await h.fetch(ref)
      expect(file.status, ref).toBe(200)
      expect(file.headers.get('content-type'), ref).toBe(ref.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8')
      expect((await file.arrayBuffer()).byteLength, ref).toBeGreaterThan(100)
    }
  })

  it("loads the app's own OpenAPI document", async () => {
    const html = await (await h.fetch('/docs')).text()
    const url = /data-openapi="([^"]+)"/.exec(html)![1]!
    expect(url).toBe(`${RENDER_URL}/openapi.json`)
    const doc = (await (await h.fetch(new URL(url).pathname)).json()) as { openapi: string; paths: Record<string, unknown> }
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.paths).toHaveProperty('/docs')
    expect(await (await h.fetch('/docs/start.js')).text()).toContain("getAttribute('data-openapi')")
  })

  it('forbids remote scripts, styles and framing with its Content-Security-Policy', async () => {
    const csp = (await h.fetch('/docs')).headers.get('content-security-policy')!
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]))
    expect(directives['default-src']).toEqual(["'none'"])
    expect(directives['script-src']).toEqual(["'self'"])
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"])
    expect(directives['frame-ancestors']).toEqual(["'none'"])
    expect(csp).not.toMatch(/https?:/)
  })

  it('lets the page call the render and auth origins when they differ from the base URL', async () => {
    const split = await createHarness({ docs: true, baseUrl: 'https://api.example.test', authUrl: 'https://auth.example.test' })
    try {
      const csp = (await split.fetch('/docs')).headers.get('content-security-policy')!
      expect(csp).toContain(`connect-src 'self' ${RENDER_URL} https://auth.example.test`)
      expect(csp).toContain("script-src 'self';")
      expect(await (await split.fetch('/docs')).text()).toContain(`data-openapi="${RENDER_URL}/openapi.json"`)
    } finally {
      await split.close()
    }
  })

  it('path traversal: serves only the three named files, nothing else of swagger-ui-dist or the disk', async () => {
    for (const path of ['/docs/package.json', '/docs/index.html', '/docs/swagger-ui-bundle.js.map', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2F%2E%2E%2Fpackage.json', '/docs/constructor', '/docs/__proto__']) {
      const response = await h.fetch(path)
      expect(response.status, path).toBe(404)
    }
  })

  it('is not served without the docs option (createLithoApp leaves it off)', async () => {
    expect((await plain.fetch('/docs')).status).toBe(404)
    expect((await plain.fetch('/docs/swagger-ui-bundle.js')).status).toBe(404)
    expect(await (await plain.fetch('/', { headers: { accept: 'application/json' } })).json()).not.toHaveProperty('links.docs')
    expect(await (await h.fetch('/', { headers: { accept: 'application/json' } })).json()).toMatchObject({ links: { docs: `${RENDER_URL}/docs` } })
  })
})

describe('litho serve', () => {
  it('serves /docs by default, which Chromium renders (operation names, no CSP violation); --no-docs and LITHO_DOCS=0 leave it out', async () => {
    const fixture = processFixture('litho-docs-serve-')
    try {
      const on = fixture.serve(0)
      const url = await on.ready
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] })
      try {
        const page = await browser.newPage()
        const errors: string[] = []
        const remote: string[] = []
        const failed: string[] = []
        page.on('response', (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`)))
        page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
        page.on('request', (request) => void (!request.url().startsWith(url) && !request.url().startsWith('data:') && remote.push(request.url())))
        await page.goto(`${url}/docs`)
        // Swagger UI shows each operation's path and summary.
        await page.locator('.opblock-summary-path', { hasText: '/v1/{design_id}' }).first().waitFor({ timeout: 20_000 })
        await expect(page.locator('.opblock-summary-description', { hasText: 'This document' }).count()).resolves.toBeGreaterThan(0)
        expect(failed).toEqual([])
        expect(errors).toEqual([])
        expect(remote).toEqual([])
      } finally {
        await browser.close()
      }
      on.child.kill('SIGKILL')
      for (const [args, env] of [[['--no-docs'], {}], [[], { LITHO_DOCS: '0' }]] as const) {
        const off = fixture.serve(0, env, [...args])
        const offUrl = await off.ready
        expect((await fetch(`${offUrl}/docs`)).status, JSON.stringify({ args, env })).toBe(404)
        expect(await (await fetch(`${offUrl}/`)).text()).not.toContain(`${offUrl}/docs`)
        off.child.kill('SIGKILL')
      }
    } finally {
      fixture.cleanup()
    }
  })
})
