import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BLOCKED_LITERAL_URLS } from '../_blocked-literals.js'
import { LithoError } from '../../src/errors.js'
import { DEFAULT_FETCH_LIMITS, fetchRemote, type NetworkPolicy } from '../../src/render/images/index.js'
import { INTERNAL_HOST, PUBLIC_HOST, spyOnConnects, startServer, testPolicy, type FixtureServer } from './fixtures.js'

/** Runs `promise`, expects a LithoError, and returns it. */
async function rejection(promise: Promise<unknown>): Promise<LithoError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!LithoError.isInstance(error)) throw new Error(`expected a LithoError, got ${String(error)}`)
  return error
}

const BODY = Buffer.from('pretend-image-bytes')

let publicServer: FixtureServer
let internalServer: FixtureServer
let connects: ReturnType<typeof spyOnConnects>

beforeAll(async () => {
  publicServer = await startServer(PUBLIC_HOST, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fixture')
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname)
    if (chain) {
      const left = Number(chain[1])
      if (left === 0) return void response.end(BODY)
      response.writeHead(302, { location: `/chain/${left - 1}` }).end()
      return
    }
    switch (url.pathname) {
      case '/ok':
        response.writeHead(200, { 'content-type': 'image/png' }).end(BODY)
        return
      case '/missing':
        response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>internal stack trace</h1>')
        return
      case '/redirect-internal':
        response.writeHead(302, { location: `http://${INTERNAL_HOST}:${internalServer.port}/secret` }).end()
        return
      case '/redirect-file':
        response.writeHead(302, { location: 'file:///etc/passwd' }).end()
        return
      case '/redirect-metadata':
        response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
        return
      case '/endless-chunked': {
        // No Content-Length: chunked, and it never ends on its own.
        response.writeHead(200, { 'content-type': 'image/png' })
        const chunk = Buffer.alloc(16 * 1024, 1)
        const timer = setInterval(() => {
          if (!response.write(chunk)) return
        }, 1)
        response.on('close', () => clearInterval(timer))
        return
      }
      case '/lying-length': {
        // Claims 10 bytes, then streams far more; write raw so node:http does not correct it.
        const socket = request.socket
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: 10\r\nconnection: close\r\n\r\n')
        socket.write(Buffer.alloc(2 * 1024 * 1024, 2))
        socket.end()
        return
      }
      case '/huge-length':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * 1024 * 1024) })
        response.write(Buffer.alloc(1024))
        return // never finishes: the client must refuse from the header alone
      case '/gzip':
        response.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(Buffer.from([0x1f, 0x8b, 8, 0]))
        return
      case '/no-headers':
        return // accepts the request and never answers
      case '/drip': {
        response.writeHead(200, { 'content-type': 'image/png' })
        const timer = setInterval(() => response.write('x'), 50)
        response.on('close', () => clearInterval(timer))
        return
      }
      default:
        response.writeHead(500).end()
    }
  })
  // Same port on the internal address, so a DNS-rebinding answer would reach it if not pinned.
  internalServer = await startServer(INTERNAL_HOST, (_request, response) => void response.end('internal secret'), publicServer.port)
})

afterAll(async () => {
  await publicServer.close()
  await internalServer.close()
})

beforeEach(() => {
  connects = spyOnConnects()
})

afterEach(() => {
  connects.restore()
})

describe('fetchRemote › happy path', () => {
  it('fetches from an allowed address and reports the content type', async () => {
    const result = await fetchRemote(`${publicServer.origin}/ok`, { policy: testPolicy() })
    expect(result.bytes.equals(BODY)).toBe(true)
    expect(result.contentType).toBe('image/png')
    expect(result.finalUrl).toBe(`${publicServer.origin}/ok`)
    expect(connects.attempts).toEqual([{ host: PUBLIC_HOST, port: publicServer.port }])
  })

  it('asks for an uncompressed body and sends the accept header it was given', async () => {
    await fetchRemote(`${publicServer.origin}/ok`, { policy: testPolicy(), accept: 'image/png' })
    expect(publicServer.lastHeaders['accept-encoding']).toBe('identity')
    expect(publicServer.lastHeaders.accept).toBe('image/png')
  })

  it('uses the documented defaults', () => {
    expect(DEFAULT_FETCH_LIMITS).toEqual({ maxBytes: 25_000_000, connectTimeoutMs: 5_000, timeoutMs: 10_000, maxRedirects: 5 })
  })

  it('decodes base64 and percent-encoded data: URIs without any connection', async () => {
    const base64 = await fetchRemote(`data:image/png;base64,${BODY.toString('base64')}`, { policy: testPolicy() })
    expect(base64.bytes.equals(BODY)).toBe(true)
    expect(base64.contentType).toBe('image/png')
    const percent = await fetchRemote('data:image/svg+xml,%3Csvg%20xmlns%3D%22x%22%2F%3E%FF', { policy: testPolicy() })
    expect(percent.bytes.equals(Buffer.concat([Buffer.from('<svg xmlns="x"/>'), Buffer.from([0xff])]))).toBe(true)
    expect(percent.contentType).toBe('image/svg+xml')
    expect(connects.attempts).toEqual([])
  })

  it('refuses a data: URI over the byte cap without echoing its payload', async () => {
    const uri = `data:image/png;base64,${Buffer.alloc(3000, 7).toString('base64')}`
    const error = await rejection(fetchRemote(uri, { policy: testPolicy(), limits: { maxBytes: 2000 } }))
    expect(error.code).toBe('ERR_IMAGE_FETCH')
    expect(error.details.reason).toBe('too_large')
    expect(error.message).toBe(`could not fetch data:image/png;base64,… (${uri.length} bytes): the data is 3000 bytes, more than the limit of 2000`)
    expect(JSON.stringify(error.toJSON())).not.toContain('BwcH')
  })

  it('refuses a malformed data: URI', async () => {
    const error = await rejection(fetchRemote('data:image/png;base64,@@@@', { policy: testPolicy() }))
    expect(error.details.reason).toBe('bad_data_uri')
  })

  it('uses ERR_FONT_FETCH when asked to', async () => {
    const error = await rejection(fetchRemote('ftp://fonts.example/a.ttf', { policy: testPolicy(), errorCode: 'ERR_FONT_FETCH' }))
    expect(error.code).toBe('ERR_FONT_FETCH')
  })
})

describe('fetchRemote › literal addresses and schemes', () => {
  // Every literal form of docs/security.md#hostile-input. Ports are irrelevant: nothing may be dialled.
  // (data: is not in this table: fetchRemote decodes data: URIs by design, without I/O.)
  const blocked = [...BLOCKED_LITERAL_URLS, `http://${INTERNAL_HOST}:8080/`]
  for (const url of blocked) {
    it(`refuses ${url} before connecting`, async () => {
      const error = await rejection(fetchRemote(url, { policy: testPolicy() }))
      expect(error.code).toBe('ERR_IMAGE_FETCH')
      expect(error.details.reason).toBe('blocked_address')
      expect(error.message).toMatch(/^could not fetch http:\/\/\S+: the address \S+ is not allowed by the network policy$/)
      expect(connects.attempts).toEqual([])
    })
  }

  const badSchemes = ['file:///etc/passwd', 'gopher://127.0.0.2:70/_x', 'ftp://127.0.0.2/a.png', '/etc/passwd', '../../config.json', 'c:/windows/win.ini', 'javascript:alert(1)']
  for (const url of badSchemes) {
    it(`refuses ${url} as bad_scheme`, async () => {
      const error = await rejection(fetchRemote(url, { policy: testPolicy() }))
      expect(error.details.reason).toBe('bad_scheme')
      expect(connects.attempts).toEqual([])
    })
  }

  it('refuses http: unless the policy allows it', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/ok`, { policy: testPolicy({ allowHttp: false }) }))
    expect(error.details.reason).toBe('bad_scheme')
    expect(error.message).toBe(`could not fetch ${publicServer.origin}/ok: the scheme http: is not allowed (expected https:; to allow http: for local testing, set LITHO_ALLOW_HTTP=1)`)
    expect(publicServer.requests).not.toContain('/ok?denied')
    expect(connects.attempts).toEqual([])
  })

  it('refuses URLs with credentials', async () => {
    const error = await rejection(fetchRemote(`http://user:pw@${PUBLIC_HOST}:${publicServer.port}/ok`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('bad_scheme')
    expect(error.message).not.toContain('pw')
  })

  it('keeps query strings (which may hold signatures) out of messages', async () => {
    const error = await rejection(fetchRemote('http://10.0.0.1/a.png?X-Amz-Signature=s3cr3t', { policy: testPolicy() }))
    expect(error.message).toBe('could not fetch http://10.0.0.1/a.png?…: the address 10.0.0.1 is not allowed by the network policy')
    expect(JSON.stringify(error.details)).not.toContain('s3cr3t')
  })
})

describe('fetchRemote › hostnames resolving to blocked addresses', () => {
  function policyResolving(answers: Record<string, string[][]>): NetworkPolicy & { calls: string[] } {
    const calls: string[] = []
    const remaining = Object.fromEntries(Object.entries(answers).map(([host, list]) => [host, [...list]]))
    return {
      ...testPolicy(),
      calls,
      lookup: async (hostname) => {
        calls.push(hostname)
        const list = remaining[hostname]
        const next = list && list.length > 1 ? list.shift()! : list?.[0]
        if (next === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
        return next.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }))
      },
    }
  }

  it('refuses a name that resolves to the metadata address, without sending a packet', async () => {
    const policy = policyResolving({ 'meta.test': [['169.254.169.254']] })
    const error = await rejection(fetchRemote('http://meta.test/latest/meta-data/', { policy }))
    expect(error.details.reason).toBe('blocked_address')
    expect(error.message).toBe('could not fetch http://meta.test/latest/meta-data/: the host meta.test does not resolve to an address allowed by the network policy')
    expect(policy.calls).toEqual(['meta.test'])
    expect(connects.attempts).toEqual([])
  })

  it('refuses a name whose answers mix an allowed and a blocked address', async () => {
    const policy = policyResolving({ 'mixed.test': [[PUBLIC_HOST, INTERNAL_HOST]] })
    const error = await rejection(fetchRemote(`http://mixed.test:${publicServer.port}/ok`, { policy }))
    expect(error.details.reason).toBe('blocked_address')
    expect(connects.attempts).toEqual([])
    expect(internalServer.connections).toBe(0)
  })

  it('pins the checked address: a rebinding resolver never gets the internal host dialled', async () => {
    const policy = policyResolving({ 'rebind.test': [[PUBLIC_HOST], [INTERNAL_HOST]] })
    const first = await fetchRemote(`http://rebind.test:${publicServer.port}/ok`, { policy })
    expect(first.bytes.equals(BODY)).toBe(true)
    // The socket was opened to the IP we checked, not to the name (which would resolve again).
    expect(connects.attempts).toEqual([{ host: PUBLIC_HOST, port: publicServer.port }])
    // The second resolution answers 127.0.0.3: refused before connecting.
    const error = await rejection(fetchRemote(`http://rebind.test:${publicServer.port}/ok`, { policy }))
    expect(error.details.reason).toBe('blocked_address')
    expect(connects.attempts).toHaveLength(1)
    expect(internalServer.connections).toBe(0)
  })

  it('refuses localhost through the system resolver', async () => {
    const error = await rejection(fetchRemote(`http://localhost:${publicServer.port}/ok`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('blocked_address')
    expect(connects.attempts).toEqual([])
  })

  it('reports resolver failures as dns_failure', async () => {
    const error = await rejection(fetchRemote('http://nowhere.test/a.png', { policy: policyResolving({}) }))
    expect(error.details.reason).toBe('dns_failure')
    expect(error.message).toBe('could not fetch http://nowhere.test/a.png: the host nowhere.test does not resolve to an address allowed by the network policy')
  })

  it('an image URL cannot probe internal DNS: a name that does not resolve and one that resolves to a blocked address get one message', async () => {
    const messages: string[] = []
    for (const answers of [{}, { 'probe.test': [['10.1.2.3']] }, { 'probe.test': [['169.254.169.254']] }, { 'probe.test': [[]] }] as Array<Record<string, string[][]>>) {
      const error = await rejection(fetchRemote('http://probe.test/a.png', { policy: policyResolving(answers) }))
      messages.push(error.message)
      expect(error.code).toBe('ERR_IMAGE_FETCH')
      // No resolver code (ENOTFOUND), no resolved address.
      expect(JSON.stringify(error.details)).not.toMatch(/ENOTFOUND|10\.1\.2\.3|169\.254/)
    }
    expect(new Set(messages)).toEqual(new Set(['could not fetch http://probe.test/a.png: the host probe.test does not resolve to an address allowed by the network policy']))
    expect(connects.attempts).toEqual([])
  })

  it('bounds a resolver that never answers by the connect timeout', async () => {
    const policy: NetworkPolicy = { ...testPolicy(), lookup: () => new Promise(() => {}) }
    const started = Date.now()
    const error = await rejection(fetchRemote('http://hang.test/a.png', { policy, limits: { connectTimeoutMs: 150 } }))
    expect(error.details.reason).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(1500)
  })
})

describe('fetchRemote › redirects', () => {
  it('re-checks the address on every hop: a redirect to the internal host is refused', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/redirect-internal`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('blocked_address')
    expect(error.message).toBe(
      `could not fetch ${publicServer.origin}/redirect-internal: the address ${INTERNAL_HOST} is not allowed by the network policy (redirected to http://${INTERNAL_HOST}:${publicServer.port}/secret)`,
    )
    expect(connects.attempts.map((attempt) => attempt.host)).toEqual([PUBLIC_HOST])
    expect(internalServer.connections).toBe(0)
  })

  it('refuses a redirect to the metadata address', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/redirect-metadata`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('blocked_address')
    expect(connects.attempts.map((attempt) => attempt.host)).toEqual([PUBLIC_HOST])
  })

  it('refuses a redirect to file:', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/redirect-file`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('bad_scheme')
    expect(error.message).toContain('redirected to file:///etc/passwd, but the scheme file: is not allowed')
  })

  it('follows a chain of 5 redirects', async () => {
    const result = await fetchRemote(`${publicServer.origin}/chain/5`, { policy: testPolicy() })
    expect(result.bytes.equals(BODY)).toBe(true)
    expect(result.finalUrl).toBe(`${publicServer.origin}/chain/0`)
  })

  it('refuses a chain of 6 redirects as too_many_redirects', async () => {
    const before = publicServer.requests.length
    const error = await rejection(fetchRemote(`${publicServer.origin}/chain/6`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('too_many_redirects')
    expect(error.message).toBe(`could not fetch ${publicServer.origin}/chain/6: more than 5 redirects`)
    // The 6th redirect is seen but not followed: /chain/0 is never requested.
    expect(publicServer.requests.slice(before)).toEqual(['/chain/6', '/chain/5', '/chain/4', '/chain/3', '/chain/2', '/chain/1'])
  })

  it('honours a smaller maxRedirects', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/chain/1`, { policy: testPolicy(), limits: { maxRedirects: 0 } }))
    expect(error.details.reason).toBe('too_many_redirects')
  })
})

describe('fetchRemote › size enforced while streaming', () => {
  it('aborts an endless chunked body once it passes maxBytes', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/endless-chunked`, { policy: testPolicy(), limits: { maxBytes: 100_000 } }))
    expect(error.details.reason).toBe('too_large')
    expect(error.message).toBe(`could not fetch ${publicServer.origin}/endless-chunked: the response is larger than the limit of 100000 bytes`)
  })

  it('never reads past a Content-Length that undercounts the body', async () => {
    const result = await fetchRemote(`${publicServer.origin}/lying-length`, { policy: testPolicy(), limits: { maxBytes: 1000 } })
    expect(result.bytes.length).toBe(10)
  })

  it('refuses from the Content-Length header alone when it already exceeds maxBytes', async () => {
    const started = Date.now()
    const error = await rejection(fetchRemote(`${publicServer.origin}/huge-length`, { policy: testPolicy(), limits: { maxBytes: 1_000_000 } }))
    expect(error.details.reason).toBe('too_large')
    expect(error.message).toContain('the response is 10485760 bytes, more than the limit of 1000000')
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('refuses a compressed body instead of inflating it', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/gzip`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('content_encoding')
  })
})

describe('fetchRemote › timeouts and failures', () => {
  it('times out a server that never sends headers', async () => {
    const started = Date.now()
    const error = await rejection(fetchRemote(`${publicServer.origin}/no-headers`, { policy: testPolicy(), limits: { timeoutMs: 300 } }))
    expect(error.details.reason).toBe('timeout')
    expect(error.message).toBe(`could not fetch ${publicServer.origin}/no-headers: no complete response within 300 ms`)
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('times out a server that drips the body', async () => {
    const started = Date.now()
    const error = await rejection(fetchRemote(`${publicServer.origin}/drip`, { policy: testPolicy(), limits: { timeoutMs: 400 } }))
    expect(error.details.reason).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('names the status of a non-2xx answer and never echoes the body', async () => {
    const error = await rejection(fetchRemote(`${publicServer.origin}/missing`, { policy: testPolicy() }))
    expect(error.details).toEqual({ url: `${publicServer.origin}/missing`, reason: 'http_status', status: 404 })
    expect(error.message).toBe(`could not fetch ${publicServer.origin}/missing: the server answered HTTP 404`)
    expect(JSON.stringify(error.toJSON())).not.toContain('stack trace')
  })

  it('reports a refused connection as network', async () => {
    const closed = await startServer(PUBLIC_HOST, () => {})
    const origin = closed.origin
    await closed.close()
    const error = await rejection(fetchRemote(`${origin}/a.png`, { policy: testPolicy() }))
    expect(error.details.reason).toBe('network')
    expect(error.message).toBe(`could not fetch ${origin}/a.png: the connection failed (ECONNREFUSED)`)
  })
})

describe('fetchRemote › option validation', () => {
  it('throws a coded TypeError for a missing policy or bad limits', async () => {
    await expect(fetchRemote('https://a.test/', {} as never)).rejects.toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' })
    await expect(fetchRemote('https://a.test/', { policy: testPolicy(), limits: { maxBytes: -1 } })).rejects.toThrow(
      'Expected limits.maxBytes to be an integer >= 1 but received -1',
    )
  })
})
