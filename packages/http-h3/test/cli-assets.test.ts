// `litho assets upload|list|delete`, run in-process on a temp data directory (docs/cli.md,
// docs/assets.md): the same checks as POST /assets, --email or --owner, the storage counted,
// delete refused while a published design draws the asset (then --force), another user's asset.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { LithoError, storageUsage } from '@litho/core'
import { CommandError, UsageError, assetsDeleteCommand, assetsListCommand, assetsUploadCommand, createBackends, designsImportCommand, usersCreateCommand, type AdminCommandIo } from '../src/index.js'
import { noisyPng, svg } from '../../core/test/assets/_images.js'
import { execFile } from 'node:child_process'
import { CHILD_ENV, CLI } from './_process.js'

const root = mkdtempSync(join(tmpdir(), 'litho-cli-assets-'))
const data = join(root, 'data')
const NOW = new Date('2026-11-26T12:00:00Z')
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const io = (out: string[] = []): AdminCommandIo => ({ writeStdout: (text) => void out.push(text), writeStderr: () => {}, env: {}, now: () => NOW })

async function run(command: (argv: string[], io: AdminCommandIo) => Promise<number>, args: string[]): Promise<Json> {
  const out: string[] = []
  expect(await command([...args, '--data', data], io(out))).toBe(0)
  return JSON.parse(out.join('')) as Json
}
async function failure(command: (argv: string[], io: AdminCommandIo) => Promise<number>, args: string[]): Promise<Error & { code?: string }> {
  const error = await command([...args, '--data', data], io()).then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  )
  expect(error, `${args.join(' ')} should fail`).not.toBeNull()
  return error!
}

const ANN = 'ann@example.com'
const BOB = 'bob@example.com'
let annId = ''
let png = ''
let pngBytes = 0

beforeAll(async () => {
  annId = (await run(usersCreateCommand, ['--email', ANN, '--password', 'correct horse battery staple', '--plan', 'free'])).userId
  await run(usersCreateCommand, ['--email', BOB, '--password', 'correct horse battery staple', '--plan', 'free'])
  const bytes = await noisyPng(40, 30)
  pngBytes = bytes.length
  png = join(root, 'logo.png')
  writeFileSync(png, bytes)
}, 30_000)

describe('litho assets', () => {
  it('upload stores the image (by --email or --owner), prints the asset with its ref, and counts its bytes', async () => {
    const asset = await run(assetsUploadCommand, [png, '--email', ANN])
    expect(asset).toMatchObject({ name: 'logo.png', contentType: 'image/png', width: 40, height: 30, bytes: pngBytes, ref: `asset:${asset.id}` })
    const named = await run(assetsUploadCommand, [png, '--owner', annId, '--name', 'Logo (dark)'])
    expect(named.name).toBe('Logo (dark)')
    const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1:3000/files' })
    try {
      expect((await storageUsage(backends.meter, { id: annId, plan: 'free' })).usedBytes).toBe(2 * pngBytes)
    } finally {
      await backends.dispose()
    }
    const list = await run(assetsListCommand, ['--email', ANN, '--limit', '1'])
    expect(list).toMatchObject({ page: 1, totalPages: 2, total: 2 })
    // Both were uploaded at the command clock's one instant: ties go by id.
    expect(list.assets[0].id).toBe([asset.id, named.id].sort()[0])
  })

  it('upload refuses what is not an accepted image, an SVG with a script, and bad flags', async () => {
    const text = join(root, 'notes.png')
    writeFileSync(text, 'just some text')
    const error = await failure(assetsUploadCommand, [text, '--email', ANN])
    expect(LithoError.isInstance(error) && error.code).toBe('ERR_ASSET_INVALID')
    expect(error.message).toMatch(/^file: is text, not a PNG, JPEG, WebP, GIF or SVG image/)
    const bad = join(root, 'bad.svg')
    writeFileSync(bad, svg('<script>alert(1)</script>'))
    expect((await failure(assetsUploadCommand, [bad, '--email', ANN])).message).toMatch(/an SVG with a <script> element/)
    expect(await failure(assetsUploadCommand, [png])).toBeInstanceOf(UsageError)
    expect(await failure(assetsUploadCommand, [png, '--email', ANN, '--owner', annId])).toBeInstanceOf(UsageError)
    expect(await failure(assetsUploadCommand, ['--email', ANN])).toBeInstanceOf(UsageError)
    const missing = await failure(assetsUploadCommand, [join(root, 'nope.png'), '--email', ANN])
    expect(missing).toBeInstanceOf(UsageError)
    expect(missing.message).toMatch(/nope\.png: cannot be read \(ENOENT\)/)
    expect((await failure(assetsUploadCommand, [png, '--owner', 'u_nobody'])).code).toBe('ERR_USER_NOT_FOUND')
  })

  it("delete is refused while a published design draws the asset, works with --force, and never reaches another user's asset", async () => {
    const asset = await run(assetsUploadCommand, [png, '--email', ANN])
    const design = join(root, 'card.json')
    writeFileSync(design, JSON.stringify({ name: 'Card with logo', design: { version: 2, width: 40, height: 30, components: [{ type: 'image', key: 'logo', width: 40, height: 30, src: asset.ref }] } }))
    await run(designsImportCommand, [design, '--email', ANN, '--publish'])
    const inUse = await failure(assetsDeleteCommand, [asset.id, '--email', ANN])
    expect(inUse).toBeInstanceOf(CommandError)
    expect(inUse.code).toBe('ERR_ASSET_IN_USE')
    expect(inUse.message).toMatch(/used by the published design "Card with logo"; change it first, or delete with --force/)
    const theirs = await failure(assetsDeleteCommand, [asset.id, '--email', BOB, '--force'])
    expect(LithoError.isInstance(theirs) && theirs.code).toBe('ERR_ASSET_NOT_FOUND')
    expect(await run(assetsDeleteCommand, [asset.id, '--email', ANN, '--force'])).toEqual({ deleted: true, id: asset.id })
    expect((await run(assetsListCommand, ['--email', ANN])).assets.map((a: Json) => a.id)).not.toContain(asset.id)
    expect((await run(assetsListCommand, ['--email', BOB])).total).toBe(0)
  })
})

describe('the litho binary', () => {
  it('assets upload --json: an image that is not accepted exits 1 with {"error":{"code","message"}} on stderr', async () => {
    const text = join(root, 'binary-notes.png')
    writeFileSync(text, 'just some text')
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, 'assets', 'upload', text, '--email', ANN, '--data', data, '--json'], { encoding: 'utf8', env: CHILD_ENV }, (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr })),
    )
    expect(code).toBe(1)
    expect(JSON.parse(stderr.trim())).toMatchObject({ error: { code: 'ERR_ASSET_INVALID', message: expect.stringMatching(/^file: is text, not a PNG/) } })
  }, 30_000)
})
