// The real `litho` binary (dist/cli.js, built by `pnpm test` first) on a fresh data directory:
// admin commands, `litho serve` as a child process, and its resident memory from /proc.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SMALL_DESIGN } from './_harness.js'

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
// Nothing from the developer's shell may choose other backends.
export const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_')))

/** A fresh data directory with its admin commands; `cleanup()` kills every child and removes it. */
export function processFixture(prefix: string) {
  const data = mkdtempSync(join(tmpdir(), prefix))
  const children: ChildProcess[] = []

  /** Runs an admin command and parses its JSON output. */
  const litho = (...args: string[]): Promise<Record<string, string>> =>
    new Promise((resolve, reject) =>
      execFile(process.execPath, [CLI, ...args, '--data', data], { env: CHILD_ENV }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)))),
    )

  /** A user (`password`), a render key and a published small design. */
  async function seed(email: string, password: string): Promise<{ key: string; renderCode: string }> {
    await litho('users', 'create', '--email', email, '--password', password, '--plan', 'pro')
    const key = (await litho('keys', 'create', '--email', email)).key!
    const file = join(data, 'small.json')
    writeFileSync(file, JSON.stringify(SMALL_DESIGN))
    const renderCode = (await litho('designs', 'import', '--email', email, file, '--publish')).renderCode!
    return { key, renderCode }
  }

  /** Spawns `litho serve` on `port` (0: any); `ready` resolves with its URL once it logs "serving". */
  function serve(port = 0, env: Record<string, string> = {}, args: string[] = []) {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--threads', '1', '--data', data, ...args], { env: { ...CHILD_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(child)
    let output = ''
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = /litho: serving (http:\/\/\S+)/.exec(output)
        if (match) resolve(match[1]!)
      })
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it was ready:\n${output}`)))
    })
    ready.catch(() => {})
    return { child, ready, exit, output: () => output }
  }

  function cleanup(): void {
    for (const child of children) child.kill('SIGKILL')
    rmSync(data, { recursive: true, force: true })
  }

  return { data, litho, seed, serve, cleanup }
}

/** A field of /proc/<pid>/status in bytes: `VmRSS` (resident now) or `VmHWM` (its peak). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`no ${field} for process ${pid}`)
  return Number(match[1]) * 1024
}

/**
 * How far the resident memory of process `pid` rose above where it was while `during` ran:
 * the kernel's own peak (VmHWM, reset first through /proc/<pid>/clear_refs), so no spike is
 * missed between samples (Linux).
 */
export async function rssGrowthDuring<T>(pid: number, during: () => Promise<T>): Promise<{ result: T; grewBy: number }> {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
  const before = statusBytes(pid, 'VmRSS')
  const result = await during()
  return { result, grewBy: statusBytes(pid, 'VmHWM') - before }
}
