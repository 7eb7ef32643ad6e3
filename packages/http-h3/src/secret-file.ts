/**
 * A secret generated on first use into `<dataDir>/secrets/<name>` (mode 0600, in a 0700
 * directory), created exactly once even when several processes start together: the URL-signing
 * keys and the render-link master key both live in such a file.
 *
 * @module secret-file
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ConfigError } from './config-error.js'

/** How long to wait for another process to finish writing the file it just created. */
const WRITE_WAIT_MS = 2_000

/**
 * The text of `file` (trimmed); when there is no file, writes a fresh 256-bit base64url secret
 * to it first. `what` names the secret in errors (`the URL-signing key`); `emptyHint` says what
 * deleting an empty file costs.
 *
 * @example const text = await readOrCreateSecretFile(join(dataDir, 'secrets', 'render-link-key'), dataDir, { what: 'the render-link key', emptyHint: 'every link then stops working' })
 */
export async function readOrCreateSecretFile(file: string, dataDir: string, names: { what: string; emptyHint: string }): Promise<string> {
  const { what, emptyHint } = names
  try {
    await mkdir(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new ConfigError(`${join(dataDir, 'secrets')}: cannot create the directory of ${what}: ${(error as Error).message}`)
  }
  const fresh = randomBytes(32).toString('base64url')
  try {
    // 'wx': fails with EEXIST when the file exists, so a secret is never overwritten and, when
    // two processes race, exactly one writes it.
    const handle = await open(file, 'wx', 0o600)
    try {
      await handle.writeFile(`${fresh}\n`, 'utf8')
    } finally {
      await handle.close()
    }
    return fresh
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(`${file}: cannot create ${what}: ${(error as Error).message}`)
  }
  // The winner of a race may not have written yet: an empty file is waited for, briefly.
  const deadline = Date.now() + WRITE_WAIT_MS
  for (;;) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      throw new ConfigError(`${file}: cannot read ${what}: ${(error as Error).message}`)
    }
    if (text.trim() !== '') return text.trim()
    if (Date.now() > deadline) throw new ConfigError(`${file}: the file of ${what} is empty; delete it to have a new one generated (${emptyHint})`)
    await sleep(25)
  }
}
