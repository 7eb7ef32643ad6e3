/**
 * @litho/auth-adapters: credentials for the Litho HTTP interface: render keys, passwords,
 * the built-in OAuth 2.1 authorization server, and bearer-token verifiers (built-in tokens,
 * or any external issuer's through its JWKS).
 *
 * @module @litho/auth-adapters
 */
export { RENDER_KEY_PREFIX, createRenderKey, displayPrefix, hashRenderKey, isRenderKey, verifyRenderKey, type NewRenderKey } from './render-keys.js'
export { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword, type ScryptParams } from './passwords.js'
export { PasswordHashingBusyError, createPasswordPool, sharedPasswordPool, type PasswordPoolOptions, type PasswordVerifier } from './password-pool.js'
export {
  createRenderKeyAuthenticator,
  type RenderKeyAuthenticator,
  type RenderKeyAuthenticatorOptions,
  type RenderKeyPrincipal,
} from './authenticate-render-key.js'
export { BodyTooLargeError, readBody, readBodyText } from './read-body.js'
export * from './oauth/index.js'
