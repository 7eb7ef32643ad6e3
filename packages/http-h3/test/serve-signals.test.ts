// The documented start commands stop within 10 s on SIGTERM or SIGINT sent to the PID that the
// command started (the package runner's, not node's), and leave no node process serving:
// `pnpm start`, `pnpm litho serve` and `npx litho serve`, run for real from the repository root.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { CHILD_ENV } from './_process.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const PNPM = join(ROOT, 'node_modules/.bin/pnpm')
const data = mkdtempSync(join(tmpdir(), 'litho-signals-'))
afterAll(() => rmSync(data, { recursive: true, force: true }))

/** PIDs of processes whose command line names our data directory (the server, and any runner). */
function serving(marker: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

const refuses = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', () => resolve(true))
  })

async function startAndStop(command: string, args: string[], signal: NodeJS.Signals, name: string): Promise<{ stoppedInMs: number; output: string }> {
  const dir = join(data, name)
  const child = spawn(command, [...args, '--port', '0', '--threads', '1', '--data', dir], { cwd: ROOT, env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /litho: serving (http:\/\/\S+)/.exec(output)
      if (match) (clearInterval(timer), resolve(match[1]!))
    }, 50)
    child.once('exit', (code) => (clearInterval(timer), reject(new Error(`${name} exited with ${code} before serving:\n${output}`))))
  })
  expect(serving(dir).length, 'a server process is running').toBeGreaterThan(0)
  const sent = Date.now()
  child.kill(signal)
  for (;;) {
    if (serving(dir).length === 0 && (await refuses(url))) break
    if (Date.now() - sent > 10_000) throw new Error(`${name}: still serving 10 s after ${signal} to the PID it started (${serving(dir).join(', ')}):\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { stoppedInMs: Date.now() - sent, output }
}

describe('the start commands stop on a signal to the PID they started', () => {
  it('serve › pnpm start, SIGTERM to pnpm: node finishes and exits, nothing serves', async () => {
    const { output } = await startAndStop(PNPM, ['start'], 'SIGTERM', 'pnpm-start')
    expect(output).toContain('litho: SIGTERM received, finishing in-flight requests')
    expect(output).toContain('litho: stopped')
  }, 40_000)

  it('serve › pnpm litho serve, SIGINT to pnpm', async () => {
    await startAndStop(PNPM, ['litho', 'serve'], 'SIGINT', 'pnpm-litho')
  }, 40_000)

  it('serve › npx litho serve, SIGTERM to npx (its shell does not pass the signal on: the server sees npx gone)', async () => {
    const { output } = await startAndStop('npx', ['--no', 'litho', 'serve'], 'SIGTERM', 'npx-litho')
    expect(output).toContain('litho: stopped')
  }, 40_000)

  it('serve › pnpm litho prints only the command output on stdout (no pnpm banner)', async () => {
    const child = spawn(PNPM, ['litho', '--version'], { cwd: ROOT, env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(0)
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  }, 20_000)
})
