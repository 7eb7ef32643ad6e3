// No request meets silence at start-up or shutdown, on a real `litho serve` (the built CLI) and
// a fresh data directory: requests fired the instant the port accepts a connection are held
// and served (or get 503 with Retry-After), and requests that keep coming on keep-alive
// connections while it stops are answered. Plus liveness and readiness.
import { Agent, request as httpRequest } from 'node:http'
import { connect, createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processFixture } from './_process.js'

const fixture = processFixture('litho-availability-')
let key = ''
let renderCode = ''

beforeAll(async () => {
  ;({ key, renderCode } = await fixture.seed('availability@example.com', 'availability battery staple'))
}, 60_000)
afterAll(() => fixture.cleanup())

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Resolves the moment `port` accepts a TCP connection (tried in a tight loop). */
async function portOpens(port: number, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    if (Date.now() > until) throw new Error(`port ${port} did not open within ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/** One GET on `agent`: its status and headers, or the error it ended with. Never waits past `limitMs`. */
function get(url: string, agent: Agent | undefined, limitMs: number): Promise<{ status?: number; headers?: Record<string, string | string[] | undefined>; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent, signal: AbortSignal.timeout(limitMs) }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      res.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }))
    })
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.name }))
    req.end()
  })
}

/** An answer a client can act on: a success, or a 503 that says when to retry. */
function expectAnswered(result: Awaited<ReturnType<typeof get>>, what: string) {
  expect(result.error, `${what}: ${result.error}`).toBeUndefined()
  if (result.status === 503) {
    expect(result.headers!['retry-after'], what).toMatch(/^\d+$/)
    const body = JSON.parse(result.body!) as { success?: boolean; ready?: boolean }
    expect(body.success === false || body.ready === false, `${what}: ${result.body}`).toBe(true)
  } else {
    expect(result.status, `${what}: ${result.body}`).toBe(200)
  }
}

describe('litho serve never leaves a request unanswered', () => {
  it('20 requests fired the moment the port accepts a connection are all answered: renders held until ready, then 200', async () => {
    const port = await freePort()
    const server = fixture.serve(port)
    let servingAt = Infinity
    void server.ready.then(() => (servingAt = performance.now()))
    await portOpens(port)
    const firedAt = performance.now()
    const base = `http://127.0.0.1:${port}`
    const paths = [...Array.from({ length: 14 }, (_, i) => `/v1/${renderCode}?format=png&key=${key}&title.text=early-${i}`), '/healthz', '/healthz', '/readyz', '/openapi.json', `/v1/${renderCode}?key=${key}`, '/readyz']
    // Each on its own connection, all at once; 30 s is the bound on an answer (a cold start takes ~2 s).
    const results = await Promise.all(paths.map((path) => get(`${base}${path}`, undefined, 30_000)))
    await server.ready
    // The requests went out before the service was ready: this is the window that used to be silent.
    expect(firedAt).toBeLessThan(servingAt)
    results.forEach((result, i) => expectAnswered(result, paths[i]!))
    // Renders and the OpenAPI document waited and were served, not turned away.
    results.forEach((result, i) => {
      if (paths[i]!.startsWith('/v1/') || paths[i] === '/openapi.json') expect(result.status, paths[i]).toBe(200)
    })
    // Liveness answers at once, even while starting.
    expect(results[14]).toMatchObject({ status: 200 })
    expect(JSON.parse(results[14]!.body!)).toMatchObject({ ok: true })
    // Every answer says nosniff, the gate's own included.
    for (const result of results) expect(result.headers!['x-content-type-options']).toBe('nosniff')

    const ready = await get(`${base}/readyz`, undefined, 10_000)
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.body!)).toEqual({ ready: true, failing: [] })
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
  }, 90_000)

  it('SIGTERM while requests keep arriving on keep-alive connections: each is answered (200, or 503 with Retry-After and Connection: close) until the port closes', async () => {
    const server = fixture.serve()
    const base = await server.ready
    const { port } = new URL(base)
    // A request the server is still reading keeps it in its stopping state for as long as we like.
    const slow = connect(Number(port), '127.0.0.1')
    await new Promise((resolve) => slow.once('connect', resolve))
    let slowAnswer = ''
    slow.on('data', (chunk) => (slowAnswer += chunk.toString()))
    const slowBody = '{"title.text":"last one"}'
    slow.write(`POST /v1/${renderCode}?format=png HTTP/1.1\r\nHost: x\r\ndma-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${slowBody.length}\r\n\r\n${slowBody.slice(0, 5)}`)

    // Three clients, one keep-alive connection each, firing one request after another.
    const outcomes: Array<Awaited<ReturnType<typeof get>> & { path: string; at: number }> = []
    let stop = false
    let signalledAt = Infinity
    const clients = [0, 1, 2].map(async (n) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      for (let i = 0; !stop; i++) {
        const path = n === 0 ? '/healthz' : `/v1/${renderCode}?key=${key}&title.text=c${n}-${i}`
        const result = await get(`${base}${path}`, agent, 15_000)
        outcomes.push({ ...result, path, at: performance.now() })
        // Told the instance is stopping (503, or `Connection: close` on /healthz), or refused once
        // nothing listens, a client goes elsewhere. (A connection opened in the instant the port
        // closes is reset by TCP itself, whatever the server does: no test can ask for more.)
        if (result.error === 'ECONNREFUSED' || result.status === 503 || (n === 0 && performance.now() > signalledAt && result.headers?.connection === 'close')) break
      }
      agent.destroy()
    })
    await new Promise((resolve) => setTimeout(resolve, 400))
    signalledAt = performance.now()
    server.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 600))
    slow.write(slowBody.slice(5))
    const code = await server.exit
    stop = true
    await Promise.all(clients)
    slow.destroy()

    expect(code).toBe(0)
    // The request in flight at SIGTERM finished, and its answer ended the connection.
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 /)
    expect(slowAnswer.toLowerCase()).toContain('connection: close')
    const during = outcomes.filter((o) => o.at > signalledAt)
    expect(outcomes.filter((o) => o.at <= signalledAt).length).toBeGreaterThan(3)
    for (const outcome of outcomes) {
      // Refused at connect: the port is closed, nothing is left waiting. Anything else is an answer.
      if (outcome.error === 'ECONNREFUSED') continue
      expectAnswered(outcome, `${outcome.path} at +${(outcome.at - signalledAt).toFixed(0)} ms`)
      if (outcome.status === 503) expect(outcome.headers!.connection).toBe('close')
    }
    // Every client kept sending after the signal and was told, on its keep-alive connection, that this instance is stopping.
    expect(during.filter((o) => o.status === 503 && o.path.startsWith('/v1/'))).toHaveLength(2)
    // Liveness still answers while stopping, and ends its connection.
    expect(during.filter((o) => o.path === '/healthz').at(-1)).toMatchObject({ status: 200, headers: expect.objectContaining({ connection: 'close' }) })
  }, 90_000)
})
