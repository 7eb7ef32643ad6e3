// docs/quick-start.md, run as written: its first shell block starts the server (here on a free
// port, with a fresh data directory through LITHO_DATA_DIR), and every other shell block runs,
// in order, in one bash with `set -euo pipefail`, from a scratch folder, with `pnpm` run from the
// repository root as the page says ("same folder"). The only edit is the port in `LITHO=…`.
// Under a command, `# {…}` is the JSON it must print (`"…"` matches any value) and
// `# file: NAME WxH FORMAT` the image it must write.
import { execFile, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { CHILD_ENV } from './_process.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const PAGE = readFileSync(join(ROOT, 'docs/quick-start.md'), 'utf8')
const DOCUMENTED_URL = 'http://127.0.0.1:3000'

interface Expectation {
  /** The command's number in the script: its stdout is kept in `out/<n>`. */
  n: number
  command: string
  json?: unknown
  file?: { name: string; width: number; height: number; format: string }
}

/** The shell blocks of the page, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
}

/** The commands of a block (continuation lines joined) and the checks written under them. */
function parseBlock(block: string, first: number): { script: string; expectations: Expectation[] } {
  const lines = block.split('\n')
  const out: string[] = []
  const expectations: Expectation[] = []
  let n = first
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)}${lines[++i]}`
    if (line.trim() === '' || line.startsWith('#')) continue
    const checks: Expectation = { n: n++, command: line }
    while (lines[i + 1]?.startsWith('# {') || lines[i + 1]?.startsWith('# file: ')) {
      const note = lines[++i]!.slice(2)
      if (note.startsWith('{')) checks.json = JSON.parse(note)
      else {
        const match = /^file: (\S+) (\d+)x(\d+) (\w+)$/.exec(note)
        if (!match) throw new Error(`unreadable check under ${line}: ${note}`)
        checks.file = { name: match[1]!, width: Number(match[2]), height: Number(match[3]), format: match[4]! }
      }
    }
    if (checks.json !== undefined || checks.file) expectations.push(checks)
    out.push(checks.json !== undefined ? `{ ${line}\n} > "$QUICK_START_OUT/${checks.n}"` : line)
  }
  return { script: out.join('\n'), expectations }
}

/** `expected` with `"…"` matching anything, objects by their listed keys. */
function matches(actual: unknown, expected: unknown): boolean {
  if (expected === '…') return actual !== undefined
  if (typeof expected !== 'object' || expected === null) return actual === expected
  if (typeof actual !== 'object' || actual === null) return false
  return Object.entries(expected).every(([key, value]) => matches((actual as Record<string, unknown>)[key], value))
}

const scratch = mkdtempSync(join(tmpdir(), 'litho-quick-start-'))
const data = join(scratch, 'data')
let server: ReturnType<typeof spawn> | undefined
afterAll(() => {
  server?.kill('SIGKILL')
  rmSync(scratch, { recursive: true, force: true })
})

describe('docs/quick-start.md', () => {
  it('quick start › every block runs against a fresh server and prints what the page says', async () => {
    const [start, ...rest] = shellBlocks(PAGE)
    expect(start, 'the first block starts the service').toContain('npx -y pnpm@10.34.9 start')
    expect(rest.length).toBeGreaterThan(5)

    // The start command of the first block, on a free port (install has run: CI does it first).
    server = spawn(join(ROOT, 'node_modules/.bin/pnpm'), ['start', '--port', '0', '--threads', '1'], { cwd: ROOT, env: { ...CHILD_ENV, LITHO_DATA_DIR: data }, stdio: ['ignore', 'pipe', 'pipe'] })
    let log = ''
    server.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /litho: serving (http:\/\/\S+)/.exec(log)
        if (match) (clearInterval(timer), resolve(match[1]!))
      }, 50)
      server!.once('exit', (code) => (clearInterval(timer), reject(new Error(`pnpm start exited with ${code}:\n${log}`))))
    })

    const parsed = rest.reduce<{ script: string[]; expectations: Expectation[]; next: number }>(
      (acc, block) => {
        const { script, expectations } = parseBlock(block, acc.next)
        return { script: [...acc.script, script], expectations: [...acc.expectations, ...expectations], next: acc.next + 1000 }
      },
      { script: [], expectations: [], next: 0 },
    )
    const body = parsed.script.join('\n')
    expect(body.split(`LITHO=${DOCUMENTED_URL}\n`).length, 'the page sets LITHO to the documented address once').toBe(2)
    const script = `set -euo pipefail\n${body.replace(`LITHO=${DOCUMENTED_URL}\n`, `LITHO=${url}\n`)}\n`

    // `pnpm` as from the repository folder the page runs in; outputs land in the scratch folder.
    const bin = join(scratch, 'bin')
    const out = join(scratch, 'out')
    const work = join(scratch, 'work')
    for (const dir of [bin, out, work]) mkdirSync(dir)
    writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\ncd '${ROOT}' && exec '${join(ROOT, 'node_modules/.bin/pnpm')}' "$@"\n`)
    chmodSync(join(bin, 'pnpm'), 0o755)
    writeFileSync(join(scratch, 'quick-start.sh'), script)

    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile('bash', [join(scratch, 'quick-start.sh')], { cwd: work, env: { ...CHILD_ENV, LITHO_DATA_DIR: data, QUICK_START_OUT: out, PATH: `${bin}:${process.env.PATH}` }, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    )
    expect(run.code, `the page's commands failed:\n${run.stderr}\n${run.stdout}\nserver:\n${log}`).toBe(0)

    expect(parsed.expectations.length).toBeGreaterThanOrEqual(10)
    for (const check of parsed.expectations) {
      if (check.json !== undefined) {
        const printed = readFileSync(join(out, String(check.n)), 'utf8').trim()
        let value: unknown
        expect(() => (value = JSON.parse(printed)), `${check.command}\nprinted: ${printed}`).not.toThrow()
        expect(matches(value, check.json), `${check.command}\nprinted ${printed}\nexpected ${JSON.stringify(check.json)}`).toBe(true)
      }
      if (check.file) {
        const path = join(work, check.file.name)
        expect(existsSync(path), `${check.command} writes ${check.file.name}`).toBe(true)
        const meta = await sharp(path).metadata()
        expect({ name: check.file.name, width: meta.width, height: meta.height, format: meta.format }).toEqual(check.file)
      }
    }
  }, 180_000)
})
