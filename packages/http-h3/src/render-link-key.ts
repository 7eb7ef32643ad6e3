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
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { checkRenderLinkSettings, DEFAULT_RENDER_LINK_MAX_SECONDS, type RenderLinkSettings } from '@litho/core'
import { ConfigError } from './config-error.js'

/** Where the generated master key lives, relative to the data directory. */
export const RENDER_LINK_KEY_FILE = join('secrets', 'render-link-key')

/** How long to wait for another process to finish writing the key file it just created. */
const KEY_FILE_WAIT_MS = 2_000

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
  const masterKey = fromEnv ?? (await readOrCreateKeyFile(where, dataDir))
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

/** The key file's secret; creates the file with a fresh one when there is none. */
async function readOrCreateKeyFile(file: string, dataDir: string): Promise<string> {
  try {
    await mkdir(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new ConfigError(`${join(dataDir, 'secrets')}: cannot create the directory of the render-link key: ${(error as Error).message}`)
  }
  const fresh = randomBytes(32).toString('base64url')
  try {
    // 'wx' fails when the file exists: a key is never overwritten, and of two racing processes exactly one writes it.
    const handle = await open(file, 'wx', 0o600)
    try {
      await handle.writeFile(`${fresh}\n`, 'utf8')
    } finally {
      await handle.close()
    }
    return fresh
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(`${file}: cannot create the render-link key: ${(error as Error).message}`)
  }
  // The winner of a race may not have written yet: an empty file is waited for, briefly.
  const deadline = Date.now() + KEY_FILE_WAIT_MS
  for (;;) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      throw new ConfigError(`${file}: cannot read the render-link key: ${(error as Error).message}`)
    }
    if (text.trim() !== '') return text.trim()
    if (Date.now() > deadline) throw new ConfigError(`${file}: the render-link key file is empty; delete it to have a new one generated (every link secret and link then stops working)`)
    await sleep(25)
  }
}
