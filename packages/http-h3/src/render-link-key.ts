/**
 * The master key of signed render links (docs/signed-render-links.md): every key's link
 * secret is derived from it and the key's salt, so it must live outside the stores (a copy of
 * the database alone then signs nothing). Two sources:
 *
 * - **The environment** (several instances must share it): `LITHO_RENDER_LINK_KEY`, at least
 *   32 bytes of random secret.
 * - **The key file** `<dataDir>/secrets/render-link-key` (one instance): created on first use,
 *   exclusively (two processes starting at once share one key), mode 0600, one line.
 *
 * `LITHO_RENDER_LINK_MAX_SECONDS` bounds `exp` (default 365 days). Replacing the master key
 * invalidates every link secret and every link: rotate keys' link secrets instead.
 *
 * @module render-link-key
 */
import { join } from 'node:path'
import { checkRenderLinkSettings, DEFAULT_RENDER_LINK_MAX_SECONDS, type RenderLinkSettings } from '@litho/core'
import { ConfigError } from './config-error.js'
import { readOrCreateSecretFile } from './secret-file.js'

/** Where the generated master key lives, relative to the data directory. */
export const RENDER_LINK_KEY_FILE = join('secrets', 'render-link-key')


/** The master key of one process and where it came from. */
export interface LoadedRenderLinkKey {
  settings: RenderLinkSettings
  /** For the startup log, e.g. `file (/srv/.litho/secrets/render-link-key), links live at most 31536000 s`; never the key. */
  source: string
}

/**
 * The render-link settings from the environment, else from the data directory's key file
 * (created on first use).
 *
 * @throws {ConfigError} naming the variable or the file when the key is short, not random or unreadable, or the limit is malformed.
 * @example const { settings } = await loadRenderLinkKey((name) => process.env[name], '/srv/.litho')
 */
export async function loadRenderLinkKey(read: (name: string) => string | undefined, dataDir: string): Promise<LoadedRenderLinkKey> {
  const rawMax = read('LITHO_RENDER_LINK_MAX_SECONDS')
  if (rawMax !== undefined && !/^\d{1,10}$/.test(rawMax)) throw new ConfigError(`LITHO_RENDER_LINK_MAX_SECONDS: expected a whole number of seconds, received ${JSON.stringify(rawMax.slice(0, 20))}`)
  const maxSeconds = rawMax === undefined ? DEFAULT_RENDER_LINK_MAX_SECONDS : Number(rawMax)
  const fromEnv = read('LITHO_RENDER_LINK_KEY')
  const where = fromEnv === undefined ? join(dataDir, RENDER_LINK_KEY_FILE) : 'LITHO_RENDER_LINK_KEY'
  const masterKey = fromEnv ?? (await readOrCreateSecretFile(where, dataDir, { what: 'the render-link key', emptyHint: 'every link secret and link then stops working' }))
  try {
    checkRenderLinkSettings({ masterKey, maxSeconds })
  } catch (error) {
    // The message never contains the key.
    const message = (error as Error).message
    if (message.includes('maxSeconds')) throw new ConfigError(`LITHO_RENDER_LINK_MAX_SECONDS: ${message.replace(/^Expected maxSeconds/, 'expected')}`)
    throw new ConfigError(`${where}: ${message.replace(/^Expected masterKey/, 'expected the key')}; generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`)
  }
  return { settings: { masterKey, maxSeconds }, source: `${fromEnv === undefined ? `file (${where})` : 'LITHO_RENDER_LINK_KEY'}, links live at most ${maxSeconds} s` }
}

