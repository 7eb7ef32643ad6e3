// The packages are ESM only, yet `require()` works: their exports end in a `default` condition
// that Node 20.19+ loads through require(esm) (docs/embedding.md#commonjs). Each package's own
// directory resolves its name (a self-reference), so this runs the built dist/ as a CommonJS
// consumer would; `pnpm test` builds first.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const packagesDir = fileURLToPath(new URL('../../../', import.meta.url))

/** Every public package and the subpaths of its exports map (less package.json). */
const packages = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; private?: boolean; exports: Record<string, unknown> } }))
  .filter(({ pkg }) => !pkg.private)

const requireAll = (dir: string, specifiers: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(
      process.execPath,
      ['-e', `for (const s of ${JSON.stringify(specifiers)}) { const m = require(s); console.log(s, typeof m === 'object' && m !== null) }`],
      { cwd: dir, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )

describe.concurrent('require(esm)', () => {
  it.each(packages.map(({ dir, pkg }) => [pkg.name, dir, pkg.exports] as const))('packaging › require() loads every entry of %s from CommonJS', async (name, dir, exportsMap) => {
    const specifiers = Object.keys(exportsMap)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`))
    for (const [subpath, target] of Object.entries(exportsMap)) {
      if (subpath === './package.json') continue
      expect(Object.keys(target as object), `${name} ${subpath}`).toEqual(['types', 'import', 'default'])
    }
    const run = await requireAll(dir, specifiers)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(specifiers.map((s) => `${s} true\n`).join(''))
  })

  it('packaging › @litho/core renders through require() too', async () => {
    const script = `require('@litho/core').render({ version: 2, width: 8, height: 8, background: '#ff0000', components: [] }, { format: 'png' }).then((r) => console.log(r.format, r.width))`
    const run = await new Promise<string>((resolve, reject) => execFile(process.execPath, ['-e', script], { cwd: join(packagesDir, 'core'), encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))))
    expect(run).toBe('png 8\n')
  })
})
