/**
 * `signRenderUrl` of `@litho/core/signing` (docs/signed-render-links.md), bundled into this
 * package from core's sources: that entry imports nothing, so the client signs links without
 * installing `@litho/core` and its renderer (sharp, resvg).
 *
 * @module signing
 */
export { signRenderUrl, type SignRenderUrlOptions } from '../../core/src/signing.js'
