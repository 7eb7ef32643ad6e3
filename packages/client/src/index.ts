/**
 * `@litho/client`: a small typed client of Litho's HTTP API (docs/client.md), generated from its
 * OpenAPI document, with `signRenderUrl` for signed render links.
 *
 * @module index
 */
export { createLithoClient, LithoApiError, type ExportOptions, type LithoClient, type LithoClientOptions, type RenderOptions, type SignedLinkOptions } from './client.js'
export { renderQuery, type Overrides, type RenderFormat, type RenderParams, type RenderResult, type RenderedImage } from './render.js'
export { retryAfterMs, retryingFetch, type FetchLike, type RetryOptions } from './retry.js'
export { signRenderUrl, type SignRenderUrlOptions } from './signing.js'
export type { components, operations, paths } from '../generated/openapi.js'
