// The master key of signed render links (render-link-key.ts, docs/signed-render-links.md): from
// LITHO_RENDER_LINK_KEY, else a key file made once with mode 0600; bad settings fail at start.
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RENDER_LINK_KEY_FILE, loadRenderLinkKey } from '../src/index.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'litho-link-key-'))
const reader = (env: Record<string, string>) => (name: string) => env[name]
const KEY = 'env-render-link-key-0123456789-abcdefghijklmnop'

describe('loadRenderLinkKey', () => {
  it('render link key › the key file is created once, mode 0600, and reused by the next process', async () => {
    const dataDir = tempDir()
    const first = await loadRenderLinkKey(reader({}), dataDir)
    const file = join(dataDir, RENDER_LINK_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')).toHaveLength(32)
    expect(first.settings).toEqual({ masterKey: readFileSync(file, 'utf8').trim(), maxSeconds: 31_536_000 })
    expect((await loadRenderLinkKey(reader({}), dataDir)).settings).toEqual(first.settings)
  })

  it('render link key › processes starting at once on a new directory share one key', async () => {
    const dataDir = tempDir()
    const all = await Promise.all(Array.from({ length: 6 }, () => loadRenderLinkKey(reader({}), dataDir)))
    expect(new Set(all.map((loaded) => loaded.settings.masterKey)).size).toBe(1)
  })

  it('render link key › LITHO_RENDER_LINK_KEY wins, writes no file and never shows in the source line', async () => {
    const dataDir = tempDir()
    const loaded = await loadRenderLinkKey(reader({ LITHO_RENDER_LINK_KEY: KEY, LITHO_RENDER_LINK_MAX_SECONDS: '604800' }), dataDir)
    expect(loaded.settings).toEqual({ masterKey: KEY, maxSeconds: 604_800 })
    expect(loaded.source).toBe('LITHO_RENDER_LINK_KEY, links live at most 604800 s')
    expect(existsSync(join(dataDir, RENDER_LINK_KEY_FILE))).toBe(false)
  })

  it.each([
    [{ LITHO_RENDER_LINK_KEY: 'short' }, /^LITHO_RENDER_LINK_KEY: expected the key to have at least 32 bytes but received 5/],
    [{ LITHO_RENDER_LINK_KEY: 'a'.repeat(40) }, /^LITHO_RENDER_LINK_KEY: expected the key to be random/],
    [{ LITHO_RENDER_LINK_MAX_SECONDS: '1d' }, /^LITHO_RENDER_LINK_MAX_SECONDS: expected a whole number of seconds, received "1d"/],
    [{ LITHO_RENDER_LINK_MAX_SECONDS: '10' }, /^LITHO_RENDER_LINK_MAX_SECONDS: expected to be a whole number from 60/],
  ])('render link key › %j is a ConfigError naming the variable', async (env, message) => {
    await expect(loadRenderLinkKey(reader(env), tempDir())).rejects.toMatchObject({ code: 'ERR_LITHO_CONFIG', message: expect.stringMatching(message) })
  })

  it('render link key › a short key file is a ConfigError naming the file, without its content', async () => {
    const dataDir = tempDir()
    await loadRenderLinkKey(reader({}), dataDir)
    writeFileSync(join(dataDir, RENDER_LINK_KEY_FILE), 'tiny-secret\n')
    const error = await loadRenderLinkKey(reader({}), dataDir).catch((e: Error) => e)
    expect((error as Error).message).toMatch(/render-link-key: expected the key to have at least 32 bytes/)
    expect((error as Error).message).not.toContain('tiny-secret')
  })
})
