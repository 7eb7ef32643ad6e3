// The request gate of `litho serve` and its readiness probe, in process: how many early
// requests are held and for how long, what a failed start answers, and what /readyz names.
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createReadiness } from '../src/readiness.js'
import { createRequestGate, type RequestGateOptions } from '../src/request-gate.js'
import { startLithoServer } from '../src/server.js'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function gated(options: RequestGateOptions) {
  const gate = createRequestGate(options)
  const server = createServer(gate.listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return { gate, url }
}

const ok = (_req: unknown, res: import('node:http').ServerResponse) => res.end('served')
const ready = async () => ({ ready: true, failing: [] })

describe('request gate', () => {
  it('an early burst beyond the cap gets 503 with Retry-After at once; the held requests are served once the app is ready', async () => {
    const { gate, url } = await gated({ maxHeld: 2, holdMs: 60_000 })
    const answered: Response[] = []
    const answers = Array.from({ length: 5 }, () => fetch(`${url}/v1/x`).then((r) => (answered.push(r), r)))
    // Three over the cap are refused at once (whichever arrive last), while two wait.
    for (let i = 0; answered.length < 3 && i < 500; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(answered.map((r) => r.status)).toEqual([503, 503, 503])
    expect(answered[0]!.headers.get('retry-after')).toBe('1')
    expect(answered[0]!.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await answered[0]!.json()).toMatchObject({ success: false, code: 'ERR_STARTING' })
    gate.open(ok, ready)
    const all = await Promise.all(answers)
    expect(all.filter((r) => r.status === 200)).toHaveLength(2)
    for (const held of all.filter((r) => r.status === 200)) expect(await held.text()).toBe('served')
  })

  it('a request held past the wait gets 503 with Retry-After, never silence', async () => {
    const { url } = await gated({ holdMs: 50 })
    const response = await fetch(`${url}/v1/x`)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
  })

  it('when start-up fails, held and later requests get 503', async () => {
    const { gate, url } = await gated({ holdMs: 60_000 })
    const held = fetch(`${url}/designs/v2`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    gate.fail()
    const answer = await held
    expect(answer.status).toBe(503)
    expect(await answer.json()).toMatchObject({ code: 'ERR_NOT_STARTED' })
    expect((await fetch(`${url}/x`)).status).toBe(503)
  })

  it('a client that keeps a body coming after its answer loses the connection a moment later (it cannot hold it open)', async () => {
    const { gate, url } = await gated({ lingerMs: 100 })
    // Answers without reading the body, as a 401 or a 413 does.
    gate.open((_req, res) => res.writeHead(413).end('too large'), ready)
    const socket = connect(Number(new URL(url).port), '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('error', () => {}) // the reset is the point
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write('POST /v1/x HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\n\r\n10000\r\n' + 'a'.repeat(1000))
    // Keep sending a trickle, as an attacker holding the connection would.
    const trickle = setInterval(() => socket.writable && socket.write('a'.repeat(100)), 20)
    await closed
    clearInterval(trickle)
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
  })

  it('liveness answers in every state; readiness is 503 until the app is ready', async () => {
    const { gate, url } = await gated({})
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true, state: 'starting' })
    const starting = await fetch(`${url}/readyz`)
    expect(starting.status).toBe(503)
    expect(await starting.json()).toEqual({ ready: false, failing: ['starting'] })
    gate.open(ok, async () => ({ ready: false, failing: ['redis'] }))
    const notReady = await fetch(`${url}/readyz`)
    expect(notReady.status).toBe(503)
    expect(notReady.headers.get('retry-after')).toBe('1')
    expect(await notReady.json()).toEqual({ ready: false, failing: ['redis'] })
    gate.close()
    const closing = await fetch(`${url}/healthz`)
    expect(closing.status).toBe(200)
    expect(closing.headers.get('connection')).toBe('close')
    const refused = await fetch(`${url}/v1/x`)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('connection')).toBe('close')
    expect(await refused.json()).toMatchObject({ code: 'ERR_SHUTTING_DOWN' })
  })
})

describe('readiness', () => {
  it('names each failing check, and a check that never answers counts as failing', async () => {
    const readiness = createReadiness({ checks: { designs: async () => null, redis: () => Promise.reject(new Error('ECONNREFUSED')), files: () => new Promise(() => {}) }, timeoutMs: 50 })
    expect(await readiness.check()).toEqual({ ready: false, failing: ['redis', 'files'] })
  })

  it('a flood of /readyz calls runs one probe at a time, and reuses its result for a moment', async () => {
    let runs = 0
    const readiness = createReadiness({ checks: { designs: async () => void runs++ }, cacheMs: 60_000 })
    await Promise.all(Array.from({ length: 200 }, () => readiness.check()))
    await readiness.check()
    expect(runs).toBe(1)
  })

  it('litho serve: /readyz is 200 when every store answers, and 503 naming the store that does not', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'litho-readyz-'))
    const server = await startLithoServer({ dataDir, port: 0, threads: 1, env: {}, log: () => {} })
    try {
      const healthy = await fetch(`${server.url}/readyz`)
      expect(healthy.status).toBe(200)
      expect(await healthy.json()).toEqual({ ready: true, failing: [] })
      // The designs store stops answering (a disk or Redis outage): wait out the cached result.
      server.backends.designs.get = () => Promise.reject(new Error('EIO: i/o error'))
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const broken = await fetch(`${server.url}/readyz`)
      expect(broken.status).toBe(503)
      expect(await broken.json()).toEqual({ ready: false, failing: ['designs'] })
      // Liveness does not depend on the stores.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    } finally {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
