// `pnpm lint:packages`: packs every public package once (pnpm pack, so workspace: ranges are
// replaced as on publish) and lints the tarball with publint (strict: warnings fail too) and
// @arethetypeswrong/cli. Needs a build first (`pnpm test` builds).
//
// attw runs with `--profile node16 --ignore-rules cjs-resolves-to-esm`: the packages are ESM
// only, and `require('@litho/core')` loads that ESM through Node's require(esm) (Node 20.19+,
// the engines floor; https://nodejs.org/api/modules.html#loading-ecmascript-modules-using-require),
// which attw reports as "ESM (dynamic import only)". Every other rule stays on, for CommonJS
// and ESM callers alike; node10 resolution (no `exports`) is ignored, as Node 20 never uses it.
// packages/core/test/require-esm.test.ts checks that require() really works.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const run = promisify(execFile)
const root = new URL('..', import.meta.url).pathname
// --no-definitely-typed: our packages ship their own types; nothing to fetch from @types.
const ATTW_ARGS = ['--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--no-definitely-typed', '--format', 'ascii']

async function publicPackages() {
  const dirs = []
  for (const name of (await readdir(join(root, 'packages'))).sort()) {
    const dir = join(root, 'packages', name)
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8').catch(() => '{"private":true}'))
    if (!pkg.private) dirs.push({ dir, name: pkg.name })
  }
  return dirs
}

/** Lints one package; returns the problems as text, '' when clean. */
async function lint({ dir, name }, out) {
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', out, '--json'], { cwd: dir })
  const tarball = JSON.parse(stdout).filename
  const problems = []
  const bytes = await readFile(tarball)
  const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, strict: true })
  for (const message of messages) problems.push(`publint ${message.type}: ${formatMessage(message, pkg)}`)
  try {
    await run('attw', [tarball, ...ATTW_ARGS], { cwd: root })
  } catch (error) {
    problems.push(`attw:\n${error.stdout || error.message}`)
  }
  process.stdout.write(problems.length === 0 ? `${name}: publint and attw clean\n` : `${name}:\n${problems.join('\n')}\n`)
  return problems.length
}

const out = await mkdtemp(join(tmpdir(), 'litho-lint-packages-'))
try {
  const packages = await publicPackages()
  // Two at a time: packing and type analysis are CPU-bound.
  let failed = 0
  for (let i = 0; i < packages.length; i += 2) {
    failed += (await Promise.all(packages.slice(i, i + 2).map((p) => lint(p, out)))).reduce((a, b) => a + b, 0)
  }
  if (failed > 0) {
    process.stdout.write(`lint:packages: ${failed} problems\n`)
    process.exitCode = 1
  }
} finally {
  await rm(out, { recursive: true, force: true })
}
