// The deployment files at the repository root (docs/deploy.md), checked without a container
// daemon: compose.yaml's services and variables, the Caddyfile's upstreams and probe, the
// Dockerfile's base, user, healthcheck and command; then the image's command is run the way
// the image runs it (its ENV, its ENTRYPOINT and CMD) against the built workspace, and the
// HEALTHCHECK command is run against it. Building the image itself is checked on paper.
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { CHILD_ENV } from './_process.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { environment?: Record<string, string>; image?: string; build?: unknown; healthcheck?: unknown; depends_on?: unknown; ports?: string[] }> }
const dockerfile = read('Dockerfile')

/** Every `LITHO_*` variable the server's code reads (src of http-h3, storage-adapters and core). */
function variablesInCode(): Set<string> {
  const names = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (path.endsWith('.ts')) for (const match of readFileSync(path, 'utf8').matchAll(/\b(LITHO_[A-Z0-9_]+|PORT)\b/g)) names.add(match[1]!)
    }
  }
  for (const pkg of ['http-h3', 'storage-adapters', 'core']) walk(join(ROOT, 'packages', pkg, 'src'))
  return names
}

describe('compose.yaml', () => {
  it('compose › two Litho instances built from the Dockerfile, Redis, MinIO and a proxy', () => {
    const services = compose.services
    const lithos = Object.entries(services).filter(([, s]) => s.build !== undefined)
    expect(lithos.map(([name]) => name)).toEqual(['litho-1', 'litho-2'])
    expect(services.redis?.image).toMatch(/^redis:/)
    expect(services.minio?.image).toMatch(/^minio\/minio/)
    expect(services.proxy?.image).toMatch(/^caddy:/)
    expect(services.proxy?.ports).toEqual(['8080:8080'])
    // Only the proxy is published: the instances are reached through it.
    for (const [, service] of lithos) expect(service.ports).toBeUndefined()
  })

  it('compose › every variable given to Litho is one the code reads, and the shared backends are named', () => {
    const known = variablesInCode()
    const env = compose.services['litho-1']!.environment!
    for (const name of Object.keys(env)) expect(known.has(name), `${name} is read by the code`).toBe(true)
    expect(env.LITHO_REDIS_URL).toBe('redis://redis:6379')
    expect(env.LITHO_S3_BUCKET).toBeTruthy()
    expect(env.LITHO_S3_ENDPOINT).toMatch(/^http:\/\//)
    expect(env.LITHO_HOST).toBe('0.0.0.0')
    // Secrets every instance must share come from .env, never from the file.
    for (const name of ['LITHO_URL_SIGNING_KEY', 'LITHO_RENDER_LINK_KEY', 'LITHO_S3_SECRET_ACCESS_KEY']) expect(env[name]).toMatch(/^\$\{[A-Z_]+:\?/)
    expect(compose.services['litho-2']!.environment).toEqual(env)
  })

  it('compose › the Caddyfile balances both instances, probes /readyz and sets X-Request-Id', () => {
    const caddy = read('deploy/Caddyfile')
    expect(caddy).toMatch(/reverse_proxy litho-1:3000 litho-2:3000/)
    expect(caddy).toMatch(/health_uri \/readyz/)
    expect(caddy).toMatch(/header_up X-Request-Id /)
    expect(read('compose.yaml')).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile')
    // The probes named are the ones the request gate answers.
    const gate = read('packages/http-h3/src/request-gate.ts')
    expect(gate).toContain("path === '/healthz'")
    expect(gate).toContain("path === '/readyz'")
  })
})

describe('Dockerfile', () => {
  it('Dockerfile › multi-stage on a slim Node 20, the pinned pnpm, a frozen install, a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m)
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2)
    const pinned = (JSON.parse(read('package.json')) as { packageManager: string }).packageManager
    expect(dockerfile).toContain(`corepack prepare ${pinned} --activate`)
    expect(dockerfile).toContain('RUN pnpm install --frozen-lockfile')
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/healthz/)
    expect(read('.dockerignore')).toMatch(/^\*\*\/node_modules$/m)
  })

  it('Dockerfile › the lockfile the image installs from is in sync with every package.json (--frozen-lockfile would pass)', async () => {
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile('npx', ['pnpm', 'install', '--frozen-lockfile', '--lockfile-only', '--offline'], { cwd: ROOT, env: CHILD_ENV, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      ),
    )
    expect(result.code, result.output).toBe(0)
  }, 70_000)

  describe('the image command, run against the built workspace', () => {
    const data = mkdtempSync(join(tmpdir(), 'litho-image-'))
    afterAll(() => rmSync(data, { recursive: true, force: true }))

    it('Dockerfile › ENTRYPOINT + CMD with the image ENV serve /healthz, the HEALTHCHECK command passes, SIGTERM exits 0', async () => {
      const env: Record<string, string> = {}
      for (const [, name, value] of dockerfile.matchAll(/^(?:ENV |\s+)([A-Z_]+)=(\S+?)(?: \\)?$/gm)) env[name!] = value!
      expect(env).toMatchObject({ LITHO_HOST: '0.0.0.0', PORT: '3000', LITHO_DATA_DIR: '/data', NODE_ENV: 'production' })
      const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
      const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
      expect(cmd).toEqual(['serve', '--host', '0.0.0.0'])
      const healthcheck = JSON.parse(/^ {2}CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
      // /app in the image is the repository here; the port and data folder are free ones.
      const port = String(await freePort())
      const args = [...entrypoint.slice(1), ...cmd].map((arg) => arg.replace(/^\/app\//, ROOT))
      const child = spawn(entrypoint[0]!, [...args, '--threads', '1'], { env: { ...CHILD_ENV, ...env, PORT: port, LITHO_DATA_DIR: data }, stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
      try {
        await waitFor(() => output.includes('litho: serving'), 60_000, () => output)
        expect(output).toContain(`litho: serving http://0.0.0.0:${port}`)
        const health = await new Promise<number>((resolve) => execFile(healthcheck[0]!, healthcheck.slice(1), { env: { ...CHILD_ENV, PORT: port }, timeout: 10_000 }, (error) => resolve(error ? 1 : 0)))
        expect(health).toBe(0)
      } finally {
        child.kill('SIGTERM')
      }
      expect(await exit).toBe(0)
    }, 90_000)
  })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitFor(condition: () => boolean, ms: number, describe: () => string): Promise<void> {
  const until = Date.now() + ms
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out:\n${describe()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
