/**
 * The Litho Console (docs/console.md) at `{base_url}/console`: the built single-page app of
 * `@litho/console`, its content-hashed assets cached for a year, `index.html` for every other
 * path under it (the app routes in the browser), under a Content-Security-Policy that lets the
 * page load and call only its own origin (and the render and auth origins when they differ).
 * Also a small page at `/` that links to it.
 *
 * @module app/console
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { H3, H3Event } from 'h3'
import { errorJson } from './errors.js'

/** The `console` option of `createLithoApp`. */
export interface ConsoleOptions {
  /** The built app: `consoleAssetsDir` of `@litho/console` (`index.html` and `assets/`). */
  assetsDir: string
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
  map: 'application/json',
}
/** Vite's output names: `name-<hash>.ext`, one flat folder; anything else is not ours. */
const ASSET_NAME = /^[A-Za-z0-9_-]{1,100}\.[a-z0-9]{1,8}$/
const MAX_CACHED_ASSETS = 64

/** The `Content-Security-Policy` of the console's pages. */
export function consoleCsp(addresses: { baseUrl: string; renderUrl: string; authUrl: string }): string {
  const origins = [...new Set([addresses.renderUrl, addresses.authUrl].map((u) => new URL(u).origin).filter((o) => o !== new URL(addresses.baseUrl).origin))]
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // data: and blob: for rendered previews; https: for the thumbnails of image URLs a user types.
    "img-src 'self' data: blob: https:",
    `connect-src 'self'${origins.map((o) => ` ${o}`).join('')}`,
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Mounts `GET|HEAD /console`, `/console/**` and `/` on `app`.
 *
 * @example mountConsole(app, { assetsDir: consoleAssetsDir }, addresses)
 */
export function mountConsole(app: H3, options: ConsoleOptions, addresses: { baseUrl: string; renderUrl: string; authUrl: string }): void {
  const basePath = new URL(addresses.baseUrl).pathname.replace(/\/$/, '')
  const csp = consoleCsp(addresses)
  const pageHeaders = {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  }
  let index: Promise<string> | undefined
  const assets = new Map<string, Buffer>()

  const page = async (event: H3Event): Promise<Response> => {
    index ??= readFile(join(options.assetsDir, 'index.html'), 'utf8').then((html) => html.replace('<base href="/console/">', `<base href="${basePath}/console/">`))
    const html = await index.catch((error: unknown) => {
      index = undefined
      throw error
    })
    return new Response(event.req.method === 'HEAD' ? null : html, { headers: { ...pageHeaders, 'content-type': 'text/html; charset=utf-8' } })
  }
  const asset = async (event: H3Event, name: string): Promise<Response> => {
    const type = TYPES[name.slice(name.lastIndexOf('.') + 1)]
    if (!ASSET_NAME.test(name) || type === undefined) return errorJson(404, 'no such console file')
    let bytes = assets.get(name)
    if (bytes === undefined) {
      try {
        bytes = await readFile(join(options.assetsDir, 'assets', name))
      } catch {
        return errorJson(404, 'no such console file')
      }
      if (assets.size < MAX_CACHED_ASSETS) assets.set(name, bytes)
    }
    const headers = { 'content-type': type, 'content-length': String(bytes.byteLength), 'cache-control': 'public, max-age=31536000, immutable' }
    return new Response(event.req.method === 'HEAD' ? null : new Uint8Array(bytes), { headers })
  }
  const route = (event: H3Event): Promise<Response> => {
    const rest = event.url.pathname.slice(event.url.pathname.indexOf('/console/') + '/console/'.length)
    return rest.startsWith('assets/') ? asset(event, rest.slice('assets/'.length)) : page(event)
  }

  for (const method of ['GET', 'HEAD'] as const) {
    // The router treats /console and /console/ alike; only the first is sent on to the second.
    app.on(method, '/console', (event) => (event.url.pathname.endsWith('/') ? page(event) : new Response(null, { status: 308, headers: { location: `${basePath}/console/` } })))
    app.on(method, '/console/**', route)
  }
}
