// Sign-in cannot starve the server (docs/security.md): password hashing (scrypt, 128 MiB) runs on a
// small pool of its own with a short queue, so bogus sign-ins from rotating addresses cannot
// take the thread pool the file stores (and so the renders) need. A real `startLithoServer` on
// the embedded fs default with a real render pool; medians of several renders, a wide margin.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRenderKey } from '@litho/auth-adapters'
import { afterAll, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'
import { SMALL_DESIGN } from './_harness.js'

const dataDir = mkdtempSync(join(tmpdir(), 'litho-signin-load-'))
let server: LithoServer | undefined
afterAll(async () => {
  await server?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

it('render latency under 20 concurrent bogus sign-ins stays within 3x of idle', async () => {
  // LITHO_TRUST_PROXY: every attempt comes from another address, as in the probe.
  server = await startLithoServer({ dataDir, port: 0, threads: 1, env: { LITHO_TRUST_PROXY: '1' }, log: () => {} })
  const base = `http://127.0.0.1:${server.port}`
  const now = new Date().toISOString()
  await server.backends.accounts.createUser({ id: 'u_load', email: 'load@example.com', passwordHash: 'scrypt$unused', plan: 'pro', createdAt: now, updatedAt: now })
  const key = createRenderKey()
  await server.backends.accounts.createKey({ id: key.id, userId: 'u_load', name: 'k', hash: key.hash, prefix: key.displayPrefix, active: true, createdAt: now, lastUsedAt: null })
  const code = randomBytes(16).toString('base64url')
  await server.backends.designs.create({ id: 'd_load', ownerId: 'u_load', name: 'card', renderCode: code, design: { ...SMALL_DESIGN, width: 1200, height: 630 }, draft: null, createdAt: now, updatedAt: now })
  const { client_id } = (await (
    await fetch(`${base}/api/v1/auth/oauth2/register?org=${server.orgId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:7777/cb'], token_endpoint_auth_method: 'none' }) })
  ).json()) as { client_id: string }

  async function renderMs(): Promise<number> {
    const started = performance.now()
    const response = await fetch(`${base}/v1/${code}?format=png&key=${key.secret}`)
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    return performance.now() - started
  }
  async function renderMedian(count: number): Promise<number> {
    const times: number[] = []
    for (let i = 0; i < count; i++) times.push(await renderMs())
    return median(times)
  }

  /** One bogus sign-in: an unknown email, from a fresh address. */
  async function bogusSignIn(): Promise<number> {
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
    const authorize = `${base}/api/v1/auth/oauth2/authorize?client_id=${encodeURIComponent(client_id)}&redirect_uri=${encodeURIComponent('http://127.0.0.1:7777/cb')}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`
    const page = await fetch(authorize, { headers: { 'x-forwarded-for': address } })
    const html = await page.text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!
    const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
    const body = new URLSearchParams({ request_id: requestId, csrf, step: 'sign-in', email: `nobody-${randomBytes(6).toString('hex')}@example.com`, password: 'guess-123456' })
    const response = await fetch(`${base}/api/v1/auth/oauth2/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': address }, body })
    await response.arrayBuffer()
    return response.status
  }

  await renderMedian(3) // warm-up
  const idle = await renderMedian(7)
  let stop = false
  const statuses: number[] = []
  const attackers = Array.from({ length: 20 }, async () => {
    while (!stop) {
      statuses.push(await bogusSignIn())
      // The client side of the attack runs in this process too: a short pause keeps it from
      // measuring a plain request flood (a proxy's job), not the cost of sign-ins.
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })
  // Let the attack fill whatever queue there is before measuring.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const underAttack = await renderMedian(7)
  stop = true
  await Promise.all(attackers)
  console.log(`render median idle ${idle.toFixed(0)} ms, under 20 concurrent bogus sign-ins ${underAttack.toFixed(0)} ms (${statuses.length} sign-in answers: ${[...new Set(statuses)].join(', ')})`)
  // Every attempt was answered: 401 (hashed and refused) or 503 (the hashing queue is full).
  expect(statuses.every((s) => s === 401 || s === 503)).toBe(true)
  // 3x idle, with a small floor for the noise of a loaded 2-core box (before the fix: seconds).
  expect(underAttack).toBeLessThan(Math.max(3 * idle, idle + 100))
}, 60_000)
