/**
 * Signed render links on `GET /v1/:design_id` (docs/signed-render-links.md): a request whose
 * query has `sig` is authenticated by its signature instead of a render key, and answered
 * with a `Cache-Control` a CDN can keep. Its own module, so the render route changes by two
 * lines: `requireRenderLink` runs as the route's credential check, `renderLinkOf` gives the
 * handler the link's query (without `exp`, `kid`, `sig`) and its cache headers.
 *
 * @module app/render-link
 */
import { invalidRequest, isSignedRenderLink, verifyRenderLink } from '@litho/core'
import { getRouterParam, type H3Event } from 'h3'
import type { AppContext } from '../routes/app-context.js'
import type { RouteAccount } from '../routes/define-route.js'

/** Seconds a CDN may keep a link without `exp`: publishing changes what it shows, so not forever. */
export const LINK_WITHOUT_EXP_MAX_AGE = 86_400

/** What the handler of a signed link needs. */
export interface RenderLinkRequest {
  /** The query without the link parameters: render parameters and overrides. */
  query: URLSearchParams
  /** The response headers of the link (`cache-control`). */
  headers: Record<string, string>
}

const LINKS = new WeakMap<H3Event, { query: URLSearchParams; expiresAt: Date | null; now: () => Date }>()

/** Whether this GET render is a signed link (its query has `sig`). */
export function isRenderLinkRequest(event: H3Event): boolean {
  return isSignedRenderLink(event.url.searchParams)
}

/**
 * Checks the signed link of a GET render and returns the key owner's account, whom the
 * render is metered to. Nothing is written before the signature checks out.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` (400) for a malformed link, a render key beside
 * it or a stored delivery; `ERR_BAD_SIGNATURE` (403, with `reason`) for a refused one.
 */
export async function requireRenderLink(event: H3Event, context: AppContext): Promise<RouteAccount> {
  const query = event.url.searchParams
  const delivery = query.get('delivery')
  // A link streams the image: a stored render is an upload on the owner's storage, per visitor.
  if (delivery !== null && delivery !== 'stream') throw invalidRequest([{ path: 'delivery', message: `a signed link streams the image; received ${JSON.stringify(delivery.slice(0, 20))} (hosted and signed deliveries need a render key)` }])
  let designId: string
  try {
    designId = decodeURIComponent(getRouterParam(event, 'design_id') ?? '')
  } catch {
    throw invalidRequest([{ path: 'design_id', message: 'expected a validly percent-encoded render code' }])
  }
  const link = await verifyRenderLink(
    { accounts: context.options.accounts, clock: context.clock, ...(context.options.renderLinks ? { renderLinks: context.options.renderLinks } : {}) },
    { designId, query, hasKeyHeader: event.req.headers.has('dma-api-key') },
  )
  LINKS.set(event, { query: link.overrides, expiresAt: link.expiresAt, now: () => context.clock.now() })
  return link.account
}

/**
 * The link of this request once checked, or undefined for a keyed render. `Cache-Control`:
 * `public, max-age=<seconds until exp>, immutable` with `exp` (the bytes of a link never
 * change until it expires, unless the design is published again: see the docs), else
 * `public, max-age=86400`.
 *
 * @example const link = renderLinkOf(event); const query = link?.query ?? event.url.searchParams
 */
export function renderLinkOf(event: H3Event): RenderLinkRequest | undefined {
  const link = LINKS.get(event)
  if (link === undefined) return undefined
  const cache =
    link.expiresAt === null
      ? `public, max-age=${LINK_WITHOUT_EXP_MAX_AGE}`
      : `public, max-age=${Math.max(0, Math.floor((link.expiresAt.getTime() - link.now().getTime()) / 1000))}, immutable`
  return { query: link.query, headers: { 'cache-control': cache } }
}
