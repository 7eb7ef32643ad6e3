// `litho serve` observability in-process: LITHO_LOG_FORMAT=json makes every line (start-up,
// requests, stop) a JSON object; LITHO_METRICS=1 serves /metrics on the main port behind
// LITHO_METRICS_TOKEN; LITHO_METRICS_PORT serves it on its own port instead; the gate's own
// answers (/healthz, /readyz) carry a request id and are counted too.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { serveCommand, type LithoServer } from '../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'litho-serve-observe-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const TOKEN = 'metrics-token-for-tests-0123'

/** Runs `litho serve` with `env` until `during` is done; returns its log lines. */
async function serving(name: string, env: Record<string, string>, during: (server: LithoServer) => Promise<void>): Promise<string[]> {
  const lines: string[] = []
  let stop!: (reason: string) => void
  const stopSignal = new Promise<string>((resolve) => (stop = resolve))
  let failure: unknown
  const code = await serveCommand(['--port', '0', '--threads', '1', '--data', join(root, name)], {
    log: (line) => lines.push(line),
    env,
    stopSignal,
    onListening: (server) =>
      void during(server).then(
        () => stop('test done'),
        (error: unknown) => {
          failure = error
          stop('test failed')
        },
      ),
  })
  if (failure) throw failure
  expect(code).toBe(0)
  return lines
}

describe('serve observability', () => {
  it('serve › json log: start-up, request and stop lines are JSON with a request id; metrics on the main port need the token', async () => {
    const lines = await serving('json', { LITHO_LOG_FORMAT: 'json', LITHO_METRICS: '1', LITHO_METRICS_TOKEN: TOKEN }, async (server) => {
      expect(server.metricsUrl).toBe(`${server.url}/metrics`)
      const health = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'probe-1' } })
      expect(health.headers.get('x-request-id')).toBe('probe-1')
      const missing = await fetch(`${server.url}/nowhere`, { headers: { 'x-request-id': 'bad id with spaces' } })
      expect(missing.status).toBe(404)
      const body = (await missing.json()) as { requestId: string }
      expect(body.requestId).toBe(missing.headers.get('x-request-id'))
      expect(body.requestId).not.toBe('bad id with spaces')
      expect((await fetch(server.metricsUrl!)).status).toBe(401)
      const scrape = await fetch(server.metricsUrl!, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(scrape.status).toBe(200)
      const text = await scrape.text()
      expect(text).toMatch(/^litho_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1$/m)
      expect(text).toMatch(/^litho_http_requests_total\{method="GET",route="\/\*\*",status="404"\} 1$/m)
      expect(text).toMatch(/^litho_render_pool_threads 1$/m)
      expect(text).toMatch(/^litho_export_queue_depth 0$/m)
      expect(text).toContain('process_resident_memory_bytes')
    })
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.find((e) => String(e.msg).startsWith('litho: serving'))).toMatchObject({ level: 30, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    expect(entries.find((e) => e.msg === 'request' && e.route === '/healthz')).toMatchObject({ reqId: 'probe-1', method: 'GET', status: 200 })
    expect(entries.find((e) => e.msg === 'request' && e.route === '/**')).toMatchObject({ method: 'GET', path: '/nowhere', status: 404 })
    expect(entries.at(-1)).toMatchObject({ msg: 'litho: stopped' })
  }, 60_000)

  it('serve › LITHO_METRICS_PORT serves /metrics on its own port and not on the main one; text log keeps its start-up line', async () => {
    const lines = await serving('port', { LITHO_METRICS_PORT: String(20_000 + Math.floor(Math.random() * 20_000)) }, async (server) => {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      expect(server.metricsUrl).not.toContain(`:${server.port}/`)
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
      const scrape = await fetch(server.metricsUrl!)
      expect(scrape.status).toBe(200)
      expect(await scrape.text()).toContain('litho_http_requests_total')
      expect((await fetch(server.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404)
    })
    expect(lines.some((line) => /^litho: serving http:\/\/127\.0\.0\.1:\d+ \(data: /.test(line))).toBe(true)
    expect(lines.some((line) => /^litho: metrics at http:\/\/127\.0\.0\.1:\d+\/metrics$/.test(line))).toBe(true)
  }, 60_000)

  it('serve › metrics off by default: /metrics on the main port is a 404', async () => {
    await serving('off', {}, async (server) => {
      expect(server.metricsUrl).toBeUndefined()
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
    })
  }, 60_000)
})
