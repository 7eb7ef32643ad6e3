// Crashes a writer at a random moment, for the tests that prove a kill mid-write leaves whole files.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * Runs `test/fixtures/<fixture>` (a script that writes under `base` forever and prints `ready`)
 * in a child process, lets it run 10 to 50 ms more, a different moment each time, then kills it
 * without warning (SIGKILL). Resolves once it has exited.
 */
export async function killMidWrite(fixture: string, base: string): Promise<void> {
  const script = fileURLToPath(new URL(`fixtures/${fixture}`, import.meta.url))
  const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', script, base], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve())
    child.on('exit', (code) => reject(new Error(`the child exited (${code}) before it was killed: ${stderr}`)))
  })
  await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  child.kill('SIGKILL')
  await exited
}
