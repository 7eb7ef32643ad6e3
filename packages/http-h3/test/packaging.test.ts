// What only a consumer sees: every public package packed with `pnpm pack`, installed with npm
// into an empty folder outside the workspace, and used from there by `import`, by `require`
// (Node 20.19+ loads our ESM with require) and through the `litho` bin. Catches missing files,
// wrong exports, a dependency that resolves only inside the workspace, a bin that is not linked.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { CHILD_ENV } from './_process.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'litho-packaging-'))
// The consumer install is large (sharp, resvg, fonts): removing it can outlast the 10 s default on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 60_000)

const run = (command: string, args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, { cwd, env: CHILD_ENV, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')} failed:\n${stderr}\n${stdout}`)) : resolve(stdout),
    ),
  )

/** Width and height from a PNG's IHDR. */
const pngSize = (bytes: Buffer) => ({ png: bytes.subarray(1, 4).toString() === 'PNG', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) })

const DESIGN = { version: 2, width: 600, height: 315, background: '#0f172a', components: [{ type: 'text', key: 'title', x: 40, y: 40, width: 520, height: 200, text: 'Hello', fontSize: 64, color: '#ffffff' }] }

describe('the packed packages, installed by npm outside the workspace', () => {
  it('packaging › import, require and the litho bin work from the tarballs', async () => {
    const tarballs = join(scratch, 'tgz')
    await run(join(ROOT, 'node_modules/.bin/pnpm'), ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], ROOT)
    const packed = readdirSync(tarballs).filter((name) => name.endsWith('.tgz'))
    const publicPackages = readdirSync(join(ROOT, 'packages')).filter((dir) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { private?: boolean }
      return manifest.private !== true
    })
    expect(packed).toHaveLength(publicPackages.length)

    const app = join(scratch, 'app')
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    await run('npm', ['install', '--no-audit', '--no-fund', ...packed.map((name) => join(tarballs, name))], app)

    writeFileSync(join(app, 'design.json'), JSON.stringify(DESIGN))
    writeFileSync(
      join(app, 'render.mjs'),
      `import { readFileSync, writeFileSync } from 'node:fs'
import { render } from '@litho/core'
import { createLithoApp } from '@litho/http-h3'
import { fsMeter } from '@litho/storage-adapters/fs'
const design = JSON.parse(readFileSync('design.json', 'utf8'))
const { bytes } = await render(design, { format: 'png', overrides: { 'title.text': 'From a tarball' } })
writeFileSync('card.png', bytes)
console.log(JSON.stringify({ createLithoApp: typeof createLithoApp, fsMeter: typeof fsMeter }))
`,
    )
    expect(JSON.parse(await run(process.execPath, ['render.mjs'], app))).toEqual({ createLithoApp: 'function', fsMeter: 'function' })
    expect(pngSize(readFileSync(join(app, 'card.png')))).toEqual({ png: true, width: 600, height: 315 })

    writeFileSync(
      join(app, 'require.cjs'),
      `const { render } = require('@litho/core')
const { createAuthorizationServer } = require('@litho/auth-adapters')
const { memoryDesignStore } = require('@litho/storage-adapters')
const testing = require('@litho/testing')
const { createLithoClient } = require('@litho/client')
console.log(JSON.stringify([typeof render, typeof createAuthorizationServer, typeof memoryDesignStore, typeof testing, typeof createLithoClient]))
`,
    )
    expect(JSON.parse(await run(process.execPath, ['require.cjs'], app))).toEqual(['function', 'function', 'function', 'object', 'function'])

    // The client signs a link with the signer bundled from @litho/core/signing (the same link core's signer makes).
    writeFileSync(
      join(app, 'client.mjs'),
      `import { createLithoClient, signRenderUrl } from '@litho/client'
import { signRenderUrl as coreSign } from '@litho/core/signing'
const litho = createLithoClient({ renderUrl: 'https://render.example.com' })
const url = litho.renderUrl('abc', { format: 'png', overrides: { 'title.text': 'Hi' } })
const options = { url, keyId: 'k1', secret: 's'.repeat(32), expiresAt: 2000000000 }
console.log(JSON.stringify({ url, same: (await signRenderUrl(options)) === (await coreSign(options)) }))
`,
    )
    expect(JSON.parse(await run(process.execPath, ['client.mjs'], app))).toEqual({ url: 'https://render.example.com/v1/abc?format=png&title.text=Hi', same: true })

    const version = JSON.parse(readFileSync(join(ROOT, 'packages/http-h3/package.json'), 'utf8')).version as string
    expect((await run(join(app, 'node_modules/.bin/litho'), ['--version'], app)).trim()).toBe(version)
    await run(join(app, 'node_modules/.bin/litho'), ['render', 'design.json', '--set', 'title.text=From the bin', '-o', 'bin.png'], app)
    expect(pngSize(readFileSync(join(app, 'bin.png')))).toEqual({ png: true, width: 600, height: 315 })
  }, 300_000)
})
