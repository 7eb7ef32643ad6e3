// Importing an adapter must not start the renderer: no sharp, satori, resvg or pdfkit, and never
// core's root. Each entry is imported in a fresh process that records every module it resolves
// (fixtures/record-imports.mjs); tsx maps `@litho/*` to the sources through tsconfig.json.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const recorder = fileURLToPath(new URL('fixtures/record-imports.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'litho-import-weight-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The modules that make up the renderer: none may load with a contract or an adapter. */
const HEAVY = [/\/node_modules\/sharp\//, /\/node_modules\/satori\//, /\/node_modules\/@resvg\/resvg-js\//, /\/node_modules\/pdfkit\//, /\/packages\/core\/src\/index\.ts$/, /\/packages\/core\/src\/render\//]

/** Every subpath of a package's `exports` as an importable specifier. */
function entriesOf(pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', pkg, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> }
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`))
}

let run = 0
/** Imports `specifier` in a fresh process: how long it took and every URL it resolved. */
async function importAlone(specifier: string): Promise<{ ms: number; urls: string[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', recorder, specifier, join(dir, `${run++}.txt`)], { cwd: repoRoot })
  return JSON.parse(stdout) as { ms: number; urls: string[] }
}

const heavyOf = (urls: string[]): string[] => urls.filter((url) => HEAVY.some((pattern) => pattern.test(url)))
/** The packages under node_modules that `urls` come from, e.g. `zod`, `@resvg/resvg-js`. */
const packagesOf = (urls: string[]): string[] =>
  [...new Set(urls.flatMap((url) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort()

describe('import weight', () => {
  for (const specifier of ['@litho/core/contracts', '@litho/core/errors', '@litho/core/signing']) {
    it(`${specifier} loads zod and nothing else`, async () => {
      const { urls } = await importAlone(specifier)
      expect(packagesOf(urls).filter((name) => name !== 'zod')).toEqual([])
      expect(heavyOf(urls)).toEqual([])
    })
  }

  // The adapters take their runtime pieces from the zod-free entries (`@litho/core/errors`,
  // `@litho/core/signing`): the schemas of the contracts are for the HTTP layer and clients.
  for (const specifier of [...entriesOf('storage-adapters'), '@litho/core/signing']) {
    it(`${specifier} does not load zod`, async () => {
      const { urls } = await importAlone(specifier)
      expect(packagesOf(urls)).not.toContain('zod')
    })
  }

  // @litho/testing's root holds compareImages, which is sharp by design: it may load sharp, never the renderer.
  const adapters = [...entriesOf('storage-adapters'), ...entriesOf('testing'), ...entriesOf('auth-adapters')]
  for (const specifier of adapters) {
    it(`${specifier} loads neither the renderer nor core's root`, async () => {
      const { urls } = await importAlone(specifier)
      const heavy = heavyOf(urls).filter((url) => !(specifier === '@litho/testing' && /\/node_modules\/sharp\//.test(url)))
      expect(heavy).toEqual([])
    })
  }
})
