// Every regular expression literal in packages/*/src (and every `new RegExp('…')` of a constant
// string) goes through recheck, a ReDoS checker (https://makenowjust-labs.github.io/recheck/):
// one pattern with super-linear backtracking on a string a client controls can block the event
// loop for seconds (issue: the numeric-override pattern, quadratic on a 16 KB run of digits).
// recheck runs here on its pure JavaScript backend: no JVM, no native binary, no network.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { Worker } from 'node:worker_threads'
import { check } from 'recheck'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

interface Found { file: string; line: number; source: string; flags: string }

/** Every `.ts` file under `packages/<name>/src`. */
function sourceFiles(): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(?:ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path)
    }
  }
  for (const pkg of readdirSync(join(ROOT, 'packages'), { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue
    try {
      walk(join(ROOT, 'packages', pkg.name, 'src'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return files
}

/** The regular expressions of one file, found by TypeScript's own parser (not by a pattern). */
function regexesOf(file: string): Found[] {
  const text = readFileSync(file, 'utf8')
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: Found[] = []
  const at = (node: ts.Node) => tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(tree)
      const end = literal.lastIndexOf('/')
      found.push({ file: relative(ROOT, file), line: at(node), source: literal.slice(1, end), flags: literal.slice(end + 1) })
    } else if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
      const [pattern, flags] = node.arguments ?? []
      if (ts.isIdentifier(node.expression) && node.expression.text === 'RegExp' && pattern && ts.isStringLiteralLike(pattern)) {
        found.push({ file: relative(ROOT, file), line: at(node), source: pattern.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '' })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(tree)
  return found
}

interface Attack { base: number; suffix: string; pumps: Array<{ prefix: string; pump: string }> }

/**
 * True when the attack recheck's fuzzer found is super-linear in V8: its string pumped to about
 * 10,000 and 40,000 characters, matched in a worker thread (an exponential one is stopped after
 * 5 s and counts as slow), must take over 100 ms at the larger size and over 8 times the smaller.
 */
async function slowInV8(source: string, flags: string, attack: Attack): Promise<boolean> {
  const unit = attack.pumps.reduce((sum, p) => sum + p.pump.length, 0) || 1
  const n = Math.max(attack.base, Math.ceil(10_000 / unit))
  const build = (count: number) => attack.pumps.map((p) => p.prefix + p.pump.repeat(count)).join('') + attack.suffix
  const code = `const { parentPort, workerData } = require('node:worker_threads')
    const re = new RegExp(workerData.source, workerData.flags)
    const time = (s) => { const t = performance.now(); re.lastIndex = 0; s.replace(re, ''); return performance.now() - t }
    parentPort.postMessage(workerData.strings.map(time))`
  const worker = new Worker(code, { eval: true, workerData: { source, flags, strings: [build(n), build(4 * n)] } })
  try {
    const times = await Promise.race([
      new Promise<number[]>((resolve, reject) => worker.once('message', resolve).once('error', reject)),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000).unref()),
    ])
    if (times === undefined) return true
    const [small, large] = times as [number, number]
    return large > 100 && large > 8 * Math.max(small, 1)
  } finally {
    await worker.terminate()
  }
}

describe('regular expressions', () => {
  it('every regular expression in packages/*/src is safe from ReDoS (recheck)', async () => {
    process.env.RECHECK_BACKEND = 'pure'
    const all = sourceFiles().flatMap(regexesOf)
    // The walk must really find the patterns it is meant to check (a broken walk passes nothing).
    expect(all.length).toBeGreaterThan(100)
    expect(all.some((r) => r.file.endsWith('design/overrides.ts') && r.source.includes('\\d+'))).toBe(true)
    // One check per distinct pattern; a finding names every place it is written.
    const places = new Map<string, Found[]>()
    for (const regex of all) places.set(`/${regex.source}/${regex.flags}`, [...(places.get(`/${regex.source}/${regex.flags}`) ?? []), regex])
    const unsafe: string[] = []
    for (const [pattern, found] of places) {
      const { source, flags } = found[0]!
      const where = found.map((regex) => `${regex.file}:${regex.line}`).join(', ')
      // Wall time: generous, so a loaded machine (2 cores shared with builds) still gets a proof.
      const result = await check(source, flags, { timeout: 45_000 })
      // The fuzz checker (patterns with lookaround or back-references, which the automaton
      // checker cannot model) counts steps in recheck's own backtracking model, with a random
      // search: under load it finds "attacks" on one run and not the next. Its finding must
      // also be slow in V8 itself, which is what runs our patterns.
      if (result.status === 'vulnerable' && (result.checker !== 'fuzz' || (await slowInV8(source, flags, result.attack))))
        unsafe.push(`${where} ${pattern}: ${result.complexity.type} (attack ${JSON.stringify(result.attack.pattern)})`)
      // Unknown (a timeout, an unsupported feature) is not proof of safety: it fails too.
      else if (result.status === 'unknown') unsafe.push(`${where} ${pattern}: not proven safe (${result.error.kind})`)
    }
    expect(unsafe).toEqual([])
  }, 600_000)

  it('the checker finds the quadratic numeric pattern that overrides used to have', async () => {
    process.env.RECHECK_BACKEND = 'pure'
    const result = await check('^\\s*[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?\\s*$', 'i', { timeout: 10_000 })
    expect(result.status).toBe('vulnerable')
  })

  it('a fuzz finding is confirmed in V8: a quadratic pattern behind a lookbehind is slow, a linear one is not', async () => {
    // Quadratic in V8: every start position scans the run of digits, then fails at the end.
    expect(await slowInV8('(?<![a-z])\\d+\\s*$', '', { base: 10, suffix: 'a', pumps: [{ prefix: '', pump: '1' }] })).toBe(true)
    // Linear in V8 (the lookbehind lets one start position through).
    expect(await slowInV8('(?<!\\/)\\/+$', '', { base: 10, suffix: '\\x00', pumps: [{ prefix: '\\x00', pump: '//' }] })).toBe(false)
  }, 60_000)
})
