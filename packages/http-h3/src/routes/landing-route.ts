/**
 * `GET /`: a small landing, so the first thing a person opens is not a 404. A browser gets a page;
 * `Accept: application/json` gets the same facts as JSON: the version and where to go next
 * (the console when it is mounted, the OpenAPI document, the MCP endpoint when there is a bearer
 * verifier, the quick start).
 *
 * @module routes/landing-route
 */
import { createRequire } from 'node:module'
import * as z from 'zod'
import { jsonResponse } from '../openapi/responses.js'
import { MCP_PATH, type AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'

/** Where a newcomer reads how to start: the page in the repository (the `repository` of package.json). */
export const QUICK_START_URL = 'https://github.com/litho/litho/blob/main/docs/quick-start.md'

let version: string | undefined
/** The version of `@litho/http-h3`, read once. */
function packageVersion(): string {
  // The package's own name resolves from inside it, built (dist/) or not (src/).
  version ??= (createRequire(import.meta.url)('@litho/http-h3/package.json') as { version: string }).version
  return version
}

const LandingSchema = z
  .object({
    name: z.literal('Litho'),
    version: z.string().meta({ description: 'The version of `@litho/http-h3` serving this.' }),
    links: z
      .object({
        console: z.string().optional().meta({ description: 'The Litho Console, when mounted.' }),
        openapi: z.string(),
        docs: z.string().optional().meta({ description: 'The API reference page, when served.' }),
        mcp: z.string().optional().meta({ description: 'The MCP endpoint, when the app has a bearer verifier.' }),
        quickStart: z.string(),
      })
      .meta({ description: 'Absolute URLs.' }),
  })
  .meta({ description: 'The landing.' })

/** The facts of the landing, for `app`. */
function landing(app: AppContext) {
  const base = app.baseUrl
  return {
    name: 'Litho' as const,
    version: packageVersion(),
    links: {
      ...(app.options.console ? { console: `${base}/console/` } : {}),
      openapi: `${base}/openapi.json`,
      ...(app.options.docs ? { docs: `${base}/docs` } : {}),
      ...(app.options.oauth || app.options.bearer ? { mcp: `${base}${MCP_PATH}` } : {}),
      quickStart: QUICK_START_URL,
    },
  }
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** Whether the client prefers JSON to HTML (an `Accept` naming JSON and not HTML first). */
function wantsJson(accept: string | null): boolean {
  if (accept === null) return false
  const json = accept.indexOf('application/json')
  const html = accept.indexOf('text/html')
  return json !== -1 && (html === -1 || json < html)
}

function page(facts: ReturnType<typeof landing>): string {
  const { links } = facts
  const item = (href: string, label: string, what: string) => `<li><a href="${escape(href)}">${label}</a>: ${what}</li>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Litho</title></head>
<body><main><h1>Litho</h1><p>This server renders stored designs to png, jpeg, webp and pdf. Version ${escape(facts.version)}.</p>
<ul>${links.console ? item(links.console, 'Open the Litho Console', 'design cards, try overrides, copy render links, manage keys, read usage') : ''}
${item(links.quickStart, 'The quick start', 'from a running server to a card over HTTP in five commands')}
${item(links.openapi, 'The OpenAPI document', 'every endpoint of the HTTP API')}
${links.docs ? item(links.docs, 'The API reference', 'the same document to read and try in the browser') : ''}
${links.mcp ? `<li>The MCP endpoint for AI hosts: <code>${escape(links.mcp)}</code></li>` : ''}</ul></main></body></html>`
}

/** `GET /`. */
export const landingRoute = defineRoute({
  method: 'GET',
  path: '/',
  server: 'base',
  auth: { kind: 'public' },
  operationId: 'getLanding',
  tags: ['openapi'],
  summary: 'A landing: the version and where to go next',
  description: 'HTML for a browser; with `Accept: application/json`, the same as JSON. Links to the console (when mounted), the OpenAPI document, the MCP endpoint and the quick start.',
  responses: { '200': jsonResponse('The landing (HTML unless JSON is asked for).', LandingSchema) },
  handler: ({ app, event }) => {
    const facts = landing(app)
    const headers = { 'cache-control': 'no-cache', vary: 'Accept' }
    if (wantsJson(event.req.headers.get('accept'))) return new Response(JSON.stringify(facts), { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } })
    return new Response(page(facts), { headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'x-content-type-options': 'nosniff' } })
  },
})
