/**
 * `GET /docs`: an API reference to read and try in a browser, over this app's own
 * `/openapi.json`: Swagger UI (`swagger-ui-dist`), served from the installed package; the page
 * loads nothing from another origin (its Content-Security-Policy allows scripts and styles from
 * this origin only, and calls to the app's own addresses).
 *
 * @module routes/docs-routes
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import * as z from 'zod'
import { errorJson } from '../app/errors.js'
import type { AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'

/** The files `/docs/<file>` serves: two from `swagger-ui-dist`, and the script that starts it. */
const FILES: Record<string, { type: string; from?: string }> = {
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', from: 'swagger-ui-dist' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', from: 'swagger-ui-dist' },
  'start.js': { type: 'text/javascript; charset=utf-8' },
}

/** Starts Swagger UI on the document named by the page (a data attribute: the page has no inline script). */
const START_JS = `(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
})();
`

const cache = new Map<string, Promise<Uint8Array>>()
/** The bytes of one of FILES, read once. */
function fileBytes(name: string): Promise<Uint8Array> {
  let bytes = cache.get(name)
  if (bytes === undefined) {
    const from = FILES[name]!.from
    bytes = from === undefined ? Promise.resolve(new TextEncoder().encode(START_JS)) : readFile(join(dirname(createRequire(import.meta.url).resolve(`${from}/package.json`)), name)).then((b) => new Uint8Array(b))
    bytes.catch(() => cache.delete(name))
    cache.set(name, bytes)
  }
  return bytes
}

/** The `Content-Security-Policy` of the API reference: own scripts and styles only; calls to the app's addresses. */
export function docsCsp(app: Pick<AppContext, 'baseUrl' | 'renderUrl' | 'authUrl'>): string {
  const own = new URL(app.baseUrl).origin
  const origins = [...new Set([app.renderUrl, app.authUrl].map((u) => new URL(u).origin).filter((o) => o !== own))]
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Swagger UI sets style attributes on the elements it draws.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self'${origins.map((o) => ` ${o}`).join('')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** The page of `/docs` for `app`. */
export function docsPage(app: Pick<AppContext, 'baseUrl' | 'renderUrl'>): string {
  const files = `${new URL(app.baseUrl).pathname.replace(/\/$/, '')}/docs`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Litho API reference</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${escape(files)}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-openapi="${escape(`${app.renderUrl}/openapi.json`)}"></div>
<script src="${escape(files)}/swagger-ui-bundle.js"></script>
<script src="${escape(files)}/start.js"></script></body></html>
`
}

const DOCS_HEADERS = { 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' }
const servesDocs = (app: AppContext) => app.options.docs === true

/** `GET /docs`. */
export const docsPageRoute = defineRoute({
  method: 'GET',
  path: '/docs',
  server: 'base',
  auth: { kind: 'public' },
  when: servesDocs,
  operationId: 'getApiReference',
  tags: ['openapi'],
  summary: 'The API reference, in a browser',
  description: 'An HTML page (Swagger UI, served by the app) that reads and lets you try `/openapi.json`. Served when the `docs` option is on (`litho serve` turns it on; `--no-docs` turns it off).',
  responses: { '200': { description: 'The page.', content: { 'text/html': {} } } },
  handler: ({ app }) => new Response(docsPage(app), { headers: { ...DOCS_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': docsCsp(app) } }),
})

/** `GET /docs/{file}`. */
export const docsFileRoute = defineRoute({
  method: 'GET',
  path: '/docs/:file',
  server: 'base',
  auth: { kind: 'public' },
  when: servesDocs,
  operationId: 'getApiReferenceFile',
  tags: ['openapi'],
  summary: 'A script or stylesheet of the API reference page',
  params: z.object({ file: z.string().meta({ description: `One of ${Object.keys(FILES).map((f) => `\`${f}\``).join(', ')}.` }) }),
  responses: { '200': { description: 'The file (cacheable for an hour).' }, '404': { description: 'Not a file of the page.' } },
  handler: async ({ param }) => {
    const name = param('file')
    const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined
    if (file === undefined) return errorJson(404, 'no such file of the API reference')
    const bytes = await fileBytes(name)
    return new Response(bytes, { headers: { 'content-type': file.type, 'content-length': String(bytes.byteLength), 'cache-control': 'public, max-age=3600' } })
  },
})
