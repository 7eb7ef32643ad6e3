// A real HTTP server on a loopback port: a Litho app (the http-h3 test harness: memory stores,
// the built-in authorization server, export jobs, signed render links) behind Node's http
// server, optionally with a front that answers 503 before passing requests on.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3'
import { createHarness, type Harness, type HarnessOptions } from '../../http-h3/test/_harness.js'
import type { LithoApiError } from '../src/index.js'

export const LINK_MASTER_KEY = 'client-test-link-master-key-0123456789abcdef'

export interface RealServer {
  h: Harness
  url: string
  /** Paths the server was asked for, in order (with their method). */
  requests: string[]
  /** Answers the next `count` requests whose path starts with `prefix` with a 503 and these headers. */
  fail(prefix: string, count: number, headers?: Record<string, string>): void
  close(): Promise<void>
}

export async function startServer(options: HarnessOptions = {}): Promise<RealServer> {
  const h = await createHarness({ withOAuth: {}, withJobs: {}, renderLinks: { masterKey: LINK_MASTER_KEY }, ...options })
  const litho = toNodeHandler(h.app)
  const requests: string[] = []
  const failures: Array<{ prefix: string; left: number; headers: Record<string, string> }> = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!
    requests.push(`${req.method} ${path}`)
    const failure = failures.find((f) => f.left > 0 && path.startsWith(f.prefix))
    if (failure) {
      failure.left -= 1
      // Read the body first, as a real server would before answering.
      req.resume()
      req.once('end', () => {
        res.writeHead(503, { 'content-type': 'application/json', ...failure.headers })
        res.end(JSON.stringify({ success: false, message: 'starting up: try again shortly', code: 'ERR_UNAVAILABLE' }))
      })
      return
    }
    void litho(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    h,
    url,
    requests,
    fail: (prefix, count, headers = {}) => void failures.push({ prefix, left: count, headers }),
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await h.close()
    },
  }
}

/** Width and height of a PNG, from its IHDR. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) throw new Error('not a PNG')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

/** The error a call fails with (a call that succeeds fails the test). */
export function failureOf<E = LithoApiError>(call: Promise<unknown>): Promise<E> {
  return call.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error as E,
  )
}
