/**
 * `@litho/core/signing`: what signs URLs and imports nothing (no zod, no Node built-ins): the
 * pure pieces of signed file URLs (docs/signed-urls.md) that the file stores use, and the
 * client side of signed render links (docs/signed-render-links.md), `signRenderUrl` on Web
 * Crypto, for Node, browsers and workers.
 *
 * @module signing
 */
export { MAX_SIGNED_URL_SECONDS, canonicalPath, type SignRequest, type UrlSigner, type UrlSignerOptions, type UrlSigningKey, type VerifyFailure } from './contracts/signing.js'
export {
  RENDER_KEY_QUERY_NAMES,
  RENDER_LINK_EXP,
  RENDER_LINK_KID,
  RENDER_LINK_PARAMS,
  RENDER_LINK_SIG,
  encodeRfc3986,
  prepareRenderLink,
  renderLinkStringToSign,
  signRenderUrl,
  type SignRenderUrlOptions,
} from './signing/render-link.js'
