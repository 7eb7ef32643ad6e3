// Retries of a 503 against a real server that answers 503 (with or without Retry-After) before
// passing requests on to Litho: the wait honours the header, tries are bounded, a body is sent
// again intact, a wait beyond the cap is not made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, oauthHelpers } from '../../http-h3/test/_oauth.js'
import { LithoApiError, createLithoClient, retryAfterMs } from '../src/index.js'
import { failureOf, pngSize, startServer, type RealServer } from './_server.js'

let server: RealServer
let token: string
let renderCode: string
let renderKey: string
const { accessToken } = oauthHelpers(() => server.h)

beforeAll(async () => {
  server = await startServer()
  const user = await server.h.createUser('pro', PASSWORD)
  token = await accessToken(user, { scope: 'read write' })
  renderCode = await server.h.createDesign(user)
  renderKey = await server.h.createKey(user)
})
afterAll(() => server.close())

const count = (request: string) => server.requests.filter((r) => r === request).length

describe('retries of a 503', () => {
  it('waits the Retry-After seconds, then gets the 200', async () => {
    server.fail(`/v1/${renderCode}`, 1, { 'retry-after': '1' })
    const litho = createLithoClient({ renderUrl: server.url, renderKey })
    const before = count(`GET /v1/${renderCode}`)
    const started = performance.now()
    const image = await litho.render(renderCode, { format: 'png' })
    const elapsed = performance.now() - started
    expect(pngSize(image.bytes)).toEqual({ width: 240, height: 160 })
    expect(count(`GET /v1/${renderCode}`) - before).toBe(2)
    expect(elapsed).toBeGreaterThanOrEqual(990)
    expect(elapsed).toBeLessThan(5_000)
  })

  it('sends a POST body again, intact, on the retry', async () => {
    server.fail('/designs/v2', 2, { 'retry-after': '0' })
    const litho = createLithoClient({ renderUrl: server.url, token })
    const before = count('POST /designs/v2')
    const created = await litho.designs.create({ name: 'After two 503s', document: { version: 2, width: 10, height: 10, components: [] } })
    expect(created.name).toBe('After two 503s')
    expect(count('POST /designs/v2') - before).toBe(3)
  })

  it('gives up after the tries allowed (3 by default, or `attempts`), throwing the 503', async () => {
    server.fail('/settings/api-keys', 10, { 'retry-after': '0' })
    const litho = createLithoClient({ renderUrl: server.url, token })
    let before = count('GET /settings/api-keys')
    const error = await failureOf(litho.keys.list())
    expect(error).toBeInstanceOf(LithoApiError)
    expect(error).toMatchObject({ status: 503, code: 'ERR_UNAVAILABLE' })
    expect(count('GET /settings/api-keys') - before).toBe(3)
    before = count('GET /settings/api-keys')
    await expect(createLithoClient({ renderUrl: server.url, token, retry: { attempts: 5 } }).keys.list()).rejects.toMatchObject({ status: 503 })
    expect(count('GET /settings/api-keys') - before).toBe(5)
    before = count('GET /settings/api-keys')
    await expect(createLithoClient({ renderUrl: server.url, token, retry: false }).keys.list()).rejects.toMatchObject({ status: 503 })
    expect(count('GET /settings/api-keys') - before).toBe(1)
  })

  it('does not wait longer than maxDelayMs: a Retry-After beyond it returns the 503 at once', async () => {
    server.fail('/analytics/api', 1, { 'retry-after': '3600' })
    const litho = createLithoClient({ renderUrl: server.url, token, retry: { maxDelayMs: 2_000 } })
    const before = count('GET /analytics/api')
    const started = performance.now()
    const error = await failureOf(litho.analytics.usage())
    expect(error.status).toBe(503)
    expect(error.headers.get('retry-after')).toBe('3600')
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(count('GET /analytics/api') - before).toBe(1)
    // The next call goes through.
    expect((await litho.analytics.usage()).success).toBe(true)
  })

  it('backs off without a Retry-After (baseDelayMs, doubling)', async () => {
    server.fail('/designs/v2', 2)
    const litho = createLithoClient({ renderUrl: server.url, token, retry: { baseDelayMs: 100 } })
    const started = performance.now()
    expect((await litho.designs.list()).docs.length).toBeGreaterThan(0)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-26T12:00:00Z')
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:05 GMT', now)).toBe(5000)
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs('-1', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
  })
})
