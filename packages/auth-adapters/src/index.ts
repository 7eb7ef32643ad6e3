/**
 * @litho/auth-adapters: credentials for the Litho HTTP interface. Today: render keys.
 * Bearer tokens and the OAuth 2.1 authorization server arrive with bearer auth.
 *
 * @module @litho/auth-adapters
 */
export { RENDER_KEY_PREFIX, createRenderKey, displayPrefix, hashRenderKey, isRenderKey, verifyRenderKey, type NewRenderKey } from './render-keys.js'
export { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword, type ScryptParams } from './passwords.js'
export {
  createRenderKeyAuthenticator,
  type RenderKeyAuthenticator,
  type RenderKeyAuthenticatorOptions,
  type RenderKeyPrincipal,
} from './authenticate-render-key.js'
