// `litho serve` as a process (docs/serve.md): the embedded default, a clean stop on SIGTERM that
// finishes in-flight requests, and a restart on the same data directory that loses nothing.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { worstCase } from '@litho/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { SMALL_DESIGN, sniff } from './_harness.js'

// The real `litho` binary (dist/cli.js): `pnpm test` builds first.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const data = mkdtempSync(join(tmpdir(), 'litho-serve-'))
const children: ChildProcess[] = []
// Nothing from the developer's shell may choose other backends.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_')))

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(data, { recursive: true, force: true })
})

function litho(...args: string[]): Promise<Record<string, string>> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [CLI, ...args, '--data', data], { env }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)))),
  )
}

/** Starts `litho serve` and resolves with its address once it is ready. */
function serve(): Promise<{ child: ChildProcess; url: string; output: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--threads', '1', '--data', data], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /litho: serving (http:\/\/\S+)/.exec(output)
      if (match) resolve({ child, url: match[1]!, output: () => output, exit })
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it was ready:\n${output}`)))
  })
}

describe('litho serve', () => {
  let key = ''
  let small = ''
  let large = ''
  let hostedPath = ''

  it('serves renders on the embedded default, with accounts made by the admin commands', async () => {
    await litho('users', 'create', '--email', 'ann@example.com', '--password', 'correct horse', '--plan', 'basic')
    key = (await litho('keys', 'create', '--email', 'ann@example.com')).key!
    const smallFile = join(data, 'small.json')
    const largeFile = join(data, 'large.json')
    writeFileSync(smallFile, JSON.stringify(SMALL_DESIGN))
    writeFileSync(largeFile, JSON.stringify(await worstCase()))
    small = (await litho('designs', 'import', '--email', 'ann@example.com', smallFile, '--publish')).renderCode!
    large = (await litho('designs', 'import', '--email', 'ann@example.com', largeFile, '--publish')).renderCode!

    const server = await serve()
    expect(server.output()).toMatch(/designs: fs/)
    const response = await fetch(`${server.url}/v1/${small}?format=png&key=${key}`)
    expect(response.status).toBe(200)
    expect(sniff(new Uint8Array(await response.arrayBuffer()))).toBe('png')
    const hosted = (await (await fetch(`${server.url}/v1/${small}?delivery=hosted&key=${key}`)).json()) as { url: string }
    hostedPath = new URL(hosted.url).pathname
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const unknown = await fetch(`${server.url}/nope`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ success: false })
    // A path that does not decode (/v1/%ZZ) is refused by h3 before routing: Litho's error naming the path.
    const malformed = await fetch(`${server.url}/v1/%ZZ?key=${key}`)
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ success: false, code: 'ERR_INVALID_REQUEST', issues: [{ path: 'path' }] })

    // SIGTERM while a large render is in flight: it completes, then the process exits 0.
    const inFlight = fetch(`${server.url}/v1/${large}?format=png&key=${key}`)
    await new Promise((resolve) => setTimeout(resolve, 150))
    server.child.kill('SIGTERM')
    const finished = await inFlight
    expect(finished.status).toBe(200)
    expect(sniff(new Uint8Array(await finished.arrayBuffer()))).toBe('png')
    expect(await server.exit).toBe(0)
    expect(server.output()).toMatch(/SIGTERM received, finishing in-flight requests[\s\S]*stopped/)
  }, 120_000)

  it('a restart on the same data directory loses nothing: keys, designs, usage and stored files', async () => {
    const server = await serve()
    try {
      const response = await fetch(`${server.url}/v1/${small}?key=${key}`)
      expect(response.status).toBe(200)
      // basic: 1,000 a month; 3 renders before the restart, this is the 4th.
      expect(response.headers.get('x-quota-remaining')).toBe(String(1000 - 4))
      const file = await fetch(`${server.url}${hostedPath}`)
      expect(file.status).toBe(200)
      expect(sniff(new Uint8Array(await file.arrayBuffer()))).toBe('jpeg')
    } finally {
      server.child.kill('SIGTERM')
      expect(await server.exit).toBe(0)
    }
  }, 60_000)

  it('refuses bad flags with a message and exit code 2', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, 'serve', '--port', 'eighty'], { env }, (error, _stdout, stderr) => resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stderr })),
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--port: expected a whole number from 0 to 65535, received "eighty"/)
  })
})
