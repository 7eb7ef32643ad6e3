// GET / (docs/http-reference.md): a landing instead of a 404, a page for a browser and JSON for
// a program, with the version and the links a newcomer needs next.
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createHarness, RENDER_URL, type Harness } from './_harness.js'

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const harnesses: Harness[] = []
afterAll(() => Promise.all(harnesses.map((h) => h.close())))
const harness = async (options: Parameters<typeof createHarness>[0] = {}) => {
  const h = await createHarness(options)
  harnesses.push(h)
  return h
}

describe('GET /', () => {
  it('landing › a browser gets a page with the version and links to the console, the quick start and the OpenAPI document', async () => {
    const h = await harness({ withOAuth: {}, console: { assetsDir: '/nonexistent' } })
    const response = await h.fetch('/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('vary')).toBe('Accept')
    const html = await response.text()
    expect(html).toContain(`Version ${VERSION}`)
    expect(html).toContain(`<a href="${RENDER_URL}/console/">Open the Litho Console</a>`)
    expect(html).toContain(`<a href="${RENDER_URL}/openapi.json">The OpenAPI document</a>`)
    expect(html).toContain('docs/quick-start.md">The quick start</a>')
    expect(html).toContain(`<code>${RENDER_URL}/api/mcp</code>`)
  })

  it('landing › Accept: application/json gets the same facts as JSON', async () => {
    const h = await harness({ withOAuth: {}, console: { assetsDir: '/nonexistent' } })
    const response = await h.fetch('/', { headers: { accept: 'application/json' } })
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual({
      name: 'Litho',
      version: VERSION,
      links: { console: `${RENDER_URL}/console/`, openapi: `${RENDER_URL}/openapi.json`, mcp: `${RENDER_URL}/api/mcp`, quickStart: 'https://github.com/litho/litho/blob/main/docs/quick-start.md' },
    })
  })

  it('landing › without a console or a bearer verifier, it links only to what exists', async () => {
    const h = await harness()
    const body = (await (await h.fetch('/', { headers: { accept: 'application/json' } })).json()) as { links: Record<string, string> }
    expect(Object.keys(body.links).sort()).toEqual(['openapi', 'quickStart'])
    expect(await (await h.fetch('/')).text()).not.toContain('/console/')
  })
})
