/**
 * Test fixtures for the image loader: loopback HTTP servers, a spy on every outgoing TCP/TLS
 * connect, and images generated with sharp (nothing is downloaded).
 */
import http from 'node:http'
import net from 'node:net'
import tls from 'node:tls'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { vi } from 'vitest'
import type { NetworkPolicy } from '../../src/render/images/index.js'

/** 127.0.0.2 plays a public host (allowed below); 127.0.0.3 plays an internal one (not allowed). */
export const PUBLIC_HOST = '127.0.0.2'
export const INTERNAL_HOST = '127.0.0.3'

/** The policy every network test uses: plain http, and only the "public" loopback address. */
export function testPolicy(overrides: Partial<NetworkPolicy> = {}): NetworkPolicy {
  return { allowHttp: true, allowNetworks: [`${PUBLIC_HOST}/32`], ...overrides }
}

export interface FixtureServer {
  /** `http://host:port` */
  origin: string
  port: number
  /** TCP connections accepted so far. */
  connections: number
  /** Request paths received so far. */
  requests: string[]
  /** Headers of the last request received. */
  lastHeaders: http.IncomingHttpHeaders
  close(): Promise<void>
}

/** Starts a node:http server on `host` (port 0 = any free port). */
export async function startServer(host: string, handler: http.RequestListener, port = 0): Promise<FixtureServer> {
  const sockets = new Set<net.Socket>()
  const server = http.createServer((request, response) => {
    fixture.requests.push(request.url ?? '')
    fixture.lastHeaders = request.headers
    handler(request, response)
  })
  server.on('connection', (socket) => {
    fixture.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  const fixture: FixtureServer = {
    origin: `http://${host}:${bound}`,
    port: bound,
    connections: 0,
    requests: [],
    lastHeaders: {},
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  return fixture
}

/**
 * Records every `net.connect` / `tls.connect` (undici dials through these module objects), so a
 * test can prove that a refused address never got a connection attempt (no SYN).
 *
 * Fail-safe: only literal loopback addresses are passed through to the real connect. Anything
 * else gets a socket that fails on the next tick, so even a broken guard cannot send a packet to
 * 169.254.169.254 or 10/8 from a test run.
 */
export function spyOnConnects(): { attempts: Array<{ host: string; port: number }>; restore(): void } {
  const attempts: Array<{ host: string; port: number }> = []
  const realNet = net.connect
  const realTls = tls.connect
  function intercept<T>(real: (...args: unknown[]) => T, args: unknown[]): T {
    const options = (typeof args[0] === 'object' && args[0] !== null ? args[0] : {}) as { host?: string; port?: number }
    const host = String(options.host)
    attempts.push({ host, port: Number(options.port) })
    if (isLoopbackLiteral(host)) return real(...args)
    const socket = new net.Socket()
    process.nextTick(() => socket.destroy(Object.assign(new Error(`test harness refused a connect to ${host}`), { code: 'ETESTREFUSED' })))
    return socket as T
  }
  const netMock = vi.spyOn(net, 'connect').mockImplementation(((...args: unknown[]) => intercept(realNet as never, args)) as typeof net.connect)
  const tlsMock = vi.spyOn(tls, 'connect').mockImplementation(((...args: unknown[]) => intercept(realTls as never, args)) as typeof tls.connect)
  return {
    attempts,
    restore() {
      netMock.mockRestore()
      tlsMock.mockRestore()
    },
  }
}

function isLoopbackLiteral(host: string): boolean {
  return (net.isIPv4(host) && host.startsWith('127.')) || host === '::1'
}

/** A solid-colour PNG (with alpha when `alpha` is true). */
export function solidPng(width: number, height: number, color: string, alpha = false): Promise<Buffer> {
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background: color } }).png().toBuffer()
}

/** A PNG whose left half is red and right half blue. */
export async function redBluePng(width: number, height: number): Promise<Buffer> {
  const half = Math.floor(width / 2)
  const left = await sharp({ create: { width: half, height, channels: 3, background: '#ff0000' } }).png().toBuffer()
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer()
}

/** The RGB of the pixel at (x, y) of an encoded image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const offset = (y * info.width + x) * info.channels
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!]
}
