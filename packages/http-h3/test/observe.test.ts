// Observability of the app: Prometheus metrics at /metrics (off by default, bounded labels,
// an optional bearer token), request ids (echoed, generated, a bad one replaced, in error
// bodies) and the structured log (pino JSON lines captured through its destination).
import { afterEach, describe, expect, it } from 'vitest'
import { createRenderer } from '@litho/core'
import { createLithoMetrics, type LithoMetrics } from '../src/observe/metrics.js'
import { createLogger } from '../src/observe/logger.js'
import { createHarness, type Harness, type HarnessOptions } from './_harness.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const TOKEN = 'scrape-token-0123456789abcdef'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function fixture(options: HarnessOptions = {}) {
  h = await createHarness(options)
  const user = await h.createUser('pro')
  const key = await h.createKey(user)
  const code = await h.createDesign(user)
  return { h, key, code }
}

/** The value of one series in a scrape, e.g. `sample(text, 'litho_http_requests_total', { route: '/v1/:design_id' })`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) total += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return total
}

const scrape = async (harness: Harness, headers: Record<string, string> = {}) => {
  const response = await harness.fetch('/metrics', { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return response.text()
}

describe('metrics', () => {
  it('metrics › off by default: /metrics is a 404 and nothing is collected', async () => {
    const { h } = await fixture()
    expect((await h.fetch('/metrics')).status).toBe(404)
  })

  it('metrics › a render counts in the render histogram (format, cache) and the request counter under its route pattern, not its path', async () => {
    const metrics = createLithoMetrics({ defaultMetrics: false })
    const { h, key, code } = await fixture({ metrics })
    const before = await scrape(h)
    expect(sample(before, 'litho_render_duration_seconds_count', { format: 'png' })).toBe(0)

    const first = await h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(first.status).toBe(200)
    expect(first.headers.get('x-litho-cache')).toBe('miss')
    let text = await scrape(h)
    // The in-process renderer keeps no layer cache across a first render: drawn whole or layered, not from a cache.
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png' })).toBe(1)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png', cache: 'output' })).toBe(0)
    expect(sample(text, 'litho_http_requests_total', { method: 'GET', route: '/v1/:design_id', status: '200' })).toBe(1)
    expect(text).not.toContain(code)
    expect(sample(text, 'litho_render_requests_total', { operation: 'renderDesign', outcome: 'ok' })).toBe(1)

    // The same request again is answered by the output cache.
    const second = await h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(second.headers.get('x-litho-cache')).toBe('hit')
    text = await scrape(h)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png', cache: 'output' })).toBe(1)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png' })).toBe(2)

    // Overriding the title draws the background layer once (kept), then reuses it for another title.
    for (const title of ['Other', 'Another']) {
      const response = await h.fetch(`/v1/${code}?format=png&title.text=${title}`, { headers: { 'dma-api-key': key } })
      expect(response.headers.get('x-litho-cache')).toBe('miss')
    }
    text = await scrape(h)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png', cache: 'layer' })).toBe(1)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png', cache: 'none' })).toBe(2)
    expect(sample(text, 'litho_render_duration_seconds_count', { format: 'png' })).toBe(4)
  })

  it('metrics › refusals count by error code, and many distinct paths make one series (bounded cardinality)', async () => {
    const metrics = createLithoMetrics({ defaultMetrics: false })
    const { h, key } = await fixture({ metrics })
    for (let i = 0; i < 20; i++) expect((await h.fetch(`/v1/nosuchdesign${i}`, { headers: { 'dma-api-key': key } })).status).toBe(404)
    expect((await h.fetch('/v1/whatever')).status).toBe(401)
    const text = await scrape(h)
    expect(sample(text, 'litho_render_requests_total', { operation: 'renderDesign', outcome: 'ERR_DESIGN_NOT_FOUND' })).toBe(20)
    expect(sample(text, 'litho_render_requests_total', { operation: 'renderDesign', outcome: 'ERR_UNAUTHORIZED' })).toBe(1)
    expect(sample(text, 'litho_http_requests_total', { route: '/v1/:design_id', status: '404' })).toBe(20)
    expect(text.split('\n').filter((line) => line.startsWith('litho_http_requests_total{')).length).toBeLessThanOrEqual(3)
    expect(text).not.toContain('nosuchdesign')
  })

  it('metrics › with a token, a scrape without it or with another is refused with 401 and a challenge', async () => {
    const metrics = createLithoMetrics({ defaultMetrics: false })
    const { h } = await fixture({ metrics, metricsEndpoint: { token: TOKEN } })
    const missing = await h.fetch('/metrics')
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
    expect(await missing.json()).toMatchObject({ success: false, code: 'ERR_UNAUTHORIZED', requestId: expect.any(String) })
    expect((await h.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401)
    expect((await h.fetch('/metrics', { headers: { authorization: TOKEN } })).status).toBe(401)
    expect(await scrape(h, { authorization: `Bearer ${TOKEN}` })).toContain('litho_http_requests_total')
  })

  it('metrics › a token shorter than 16 characters is refused when the app is created', async () => {
    await expect(createHarness({ metrics: createLithoMetrics({ defaultMetrics: false }), metricsEndpoint: { token: 'short' } })).rejects.toThrow(/metricsEndpoint\.token: expected 16 to 512/)
  })

  it('metrics › process metrics (memory) are in the registry by default', async () => {
    const metrics: LithoMetrics = createLithoMetrics()
    const text = await metrics.registry.metrics()
    expect(text).toContain('process_resident_memory_bytes')
    expect(text).toContain('nodejs_heap_size_used_bytes')
  })

  it('metrics › webhook deliveries count by outcome and job runs by their end', async () => {
    const metrics = createLithoMetrics({ defaultMetrics: false })
    const sender = metrics.instrumentWebhookSender({ send: async () => ({ ok: false, reason: 'timeout', durationMs: 1 }) })
    await sender.send({ url: 'https://example.com/hook', secret: 'whsec_x', id: 'msg_1', payload: {}, now: new Date() })
    const ok = metrics.instrumentWebhookSender({ send: async () => ({ ok: true, status: 204, durationMs: 1 }) })
    await ok.send({ url: 'https://example.com/hook', secret: 'whsec_x', id: 'msg_2', payload: {}, now: new Date() })
    const { memoryJobStore } = await import('@litho/storage-adapters/job-store')
    const jobs = metrics.instrumentJobStore(memoryJobStore())
    const record = { id: 'exp_1', ownerId: 'u_1', designId: 'd_1', status: 'queued' as const, request: {}, attempts: 0, createdAt: '2026-11-26T00:00:00Z', updatedAt: '2026-11-26T00:00:00Z' }
    await jobs.create(record)
    await jobs.update({ ...record, status: 'processing' })
    await jobs.update({ ...record, status: 'succeeded' })
    // A second save of a finished job (its webhook's state) is not a second outcome.
    await jobs.update({ ...record, status: 'succeeded' })
    const text = await metrics.registry.metrics()
    expect(sample(text, 'litho_webhook_deliveries_total', { outcome: 'timeout' })).toBe(1)
    expect(sample(text, 'litho_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1)
    expect(sample(text, 'litho_export_jobs_total', { outcome: 'succeeded' })).toBe(1)
  })

  it('metrics › the pool and queue gauges read their sources at each scrape', async () => {
    const metrics = createLithoMetrics({ defaultMetrics: false })
    metrics.watchPool({ threads: 3, stats: () => ({ queued: 5, completed: 9, utilization: 0.25 }) })
    metrics.watchQueue({ depth: async () => 7 })
    const text = await metrics.registry.metrics()
    expect(sample(text, 'litho_render_pool_threads')).toBe(3)
    expect(sample(text, 'litho_render_pool_queued')).toBe(5)
    expect(sample(text, 'litho_render_pool_utilization')).toBe(0.25)
    expect(sample(text, 'litho_export_queue_depth')).toBe(7)
  })
})

describe('request ids', () => {
  it('request id › a safe X-Request-Id is echoed on success and error answers, and in the error body beside the documented fields', async () => {
    const { h, key, code } = await fixture()
    const ok = await h.fetch(`/v1/${code}`, { headers: { 'dma-api-key': key, 'x-request-id': 'edge-7f3a:1' } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-request-id')).toBe('edge-7f3a:1')
    const missing = await h.fetch('/v1/nosuch', { headers: { 'dma-api-key': key, 'x-request-id': 'edge-7f3a:2' } })
    expect(missing.headers.get('x-request-id')).toBe('edge-7f3a:2')
    expect(await missing.json()).toEqual({ success: false, message: 'no published design has the render code "nosuch"', code: 'ERR_DESIGN_NOT_FOUND', requestId: 'edge-7f3a:2' })
  })

  it('request id › without one, a UUID is generated, different for each request', async () => {
    const { h } = await fixture()
    const a = (await h.fetch('/openapi.json')).headers.get('x-request-id')
    const b = (await h.fetch('/openapi.json')).headers.get('x-request-id')
    expect(a).toMatch(UUID)
    expect(b).toMatch(UUID)
    expect(a).not.toBe(b)
  })

  it.each([
    ['too long (129 characters)', 'a'.repeat(129)],
    ['header injection characters', 'id\u0001<script>'],
    ['spaces', 'two words'],
    ['a quote', 'a"b'],
  ])('request id › log injection: one that is %s is replaced by a generated one', async (_case, given) => {
    const { h, key } = await fixture()
    const response = await h.fetch('/v1/nosuch', { headers: { 'dma-api-key': key, 'x-request-id': given.replace(/[\u0000-\u001f]/g, '') } })
    const id = response.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    expect(((await response.json()) as { requestId: string }).requestId).toBe(id)
  })

  it('request id › 128 characters is the longest kept', async () => {
    const { h } = await fixture()
    const longest = 'a'.repeat(128)
    expect((await h.fetch('/openapi.json', { headers: { 'x-request-id': longest } })).headers.get('x-request-id')).toBe(longest)
  })
})

describe('log', () => {
  it('log › one JSON line per request (request id, method, route, status, duration), and errors carry the request id', async () => {
    const lines: string[] = []
    const logger = createLogger({ format: 'json', level: 'info', write: (line) => lines.push(line) })
    const failing = createRenderer()
    const renderer = { ...failing, render: async () => Promise.reject(new Error('disk on fire')), renderResolved: async () => Promise.reject(new Error('disk on fire')) }
    const { h, key, code } = await fixture({ logger, logRequests: true, renderer, onError: undefined })
    const response = await h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key, 'x-request-id': 'req-42' } })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ success: false, code: 'ERR_INTERNAL', requestId: 'req-42' })
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const request = entries.find((entry) => entry.msg === 'request')
    expect(request).toMatchObject({ level: 30, reqId: 'req-42', method: 'GET', route: '/v1/:design_id', path: `/v1/${code}`, status: 500 })
    expect(typeof request!.durationMs).toBe('number')
    expect(typeof request!.time).toBe('string')
    const error = entries.find((entry) => entry.level === 50)
    expect(error).toMatchObject({ reqId: 'req-42', msg: 'error', err: { message: 'disk on fire' } })
    // No query string (it may hold a key) in any line.
    expect(lines.join('\n')).not.toContain(key)
    await failing.close()
  })

  it('log › LITHO_LOG_LEVEL=warn drops the request lines, text format writes the old request line', async () => {
    const quiet: string[] = []
    const { h } = await fixture({ logger: createLogger({ format: 'json', level: 'warn', write: (line) => quiet.push(line) }), logRequests: true })
    await h.fetch('/openapi.json')
    expect(quiet).toEqual([])
    await h.close()
    const text: string[] = []
    const second = await fixture({ logger: createLogger({ format: 'text', write: (line) => text.push(line) }), logRequests: true })
    await second.h.fetch('/openapi.json', { headers: { 'x-request-id': 'r1' } })
    expect(text).toEqual([expect.stringMatching(/^GET \/openapi\.json 200 \d+\.\dms \(request r1\)$/)])
  })
})
