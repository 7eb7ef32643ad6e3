/**
 * The request listener of `litho serve`, attached before the port opens, so that no request
 * is ever met with silence: while the service starts, requests wait (a few, briefly) and are
 * then served; beyond that, and while it stops, they get 503 JSON with `Retry-After`.
 * `/healthz` (liveness) answers in every state; `/readyz` (readiness) says whether the stores
 * and render workers can serve.
 *
 * @module request-gate
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readiness } from './readiness.js'

/** Where the gate is: holding, serving, refusing after a failed start, or refusing while stopping. */
export type GateState = 'starting' | 'serving' | 'failed' | 'closing'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** Options of {@link createRequestGate}. */
export interface RequestGateOptions {
  /** Requests held while starting; more get 503 at once. @default 64 */
  maxHeld?: number
  /** How long a request may be held before it gets 503. @default 10000 */
  holdMs?: number
  /** How long an answered request whose body is still arriving keeps its connection. @default 2000 */
  lingerMs?: number
}

/** The gate: its listener, and the transitions the server drives. */
export interface RequestGate {
  /** The `request` listener of the Node server, from before `listen`. */
  readonly listener: Listener
  readonly state: GateState
  /** Start serving with `handler` (held requests first, in arrival order) and `readiness` for `/readyz`. */
  open(handler: Listener, readiness: () => Promise<Readiness>): void
  /** The service could not start: held and later requests get 503. */
  fail(): void
  /** The service is stopping: requests in flight finish (then their connection closes); new ones get 503 with `Connection: close`. */
  close(): void
}

/** Seconds a client should wait before retrying a 503 of the gate. */
export const GATE_RETRY_AFTER_SECONDS = 1

/**
 * Creates the gate. Every response it lets through or writes carries
 * `X-Content-Type-Options: nosniff`.
 *
 * @example
 * const gate = createRequestGate()
 * const server = createServer(gate.listener)
 * server.listen(3000)
 * // … start the stores and workers …
 * gate.open(toNodeHandler(app), () => readiness.check())
 */
export function createRequestGate(options: RequestGateOptions = {}): RequestGate {
  // Each held request keeps a socket and its unread body (bounded by the socket's buffers), so
  // the cap bounds what an early burst can hold; the wait covers a cold start on a slow disk.
  const maxHeld = options.maxHeld ?? 64
  const holdMs = options.holdMs ?? 10_000
  const lingerMs = options.lingerMs ?? 2000
  let state: GateState = 'starting'
  let handler: Listener | undefined
  let readiness: (() => Promise<Readiness>) | undefined
  const held = new Map<ServerResponse, { req: IncomingMessage; timer: NodeJS.Timeout }>()
  const inFlight = new Set<ServerResponse>()

  function serve(req: IncomingMessage, res: ServerResponse): void {
    inFlight.add(res)
    res.once('close', () => inFlight.delete(res))
    handler!(req, res)
  }

  function hold(req: IncomingMessage, res: ServerResponse): void {
    if (held.size >= maxHeld) return unavailable(res, 'the server is starting; try again in a moment', 'ERR_STARTING')
    const timer = setTimeout(() => {
      held.delete(res)
      unavailable(res, 'the server is still starting; try again in a moment', 'ERR_STARTING')
    }, holdMs)
    held.set(res, { req, timer })
    // A client that gives up is no longer waited for.
    res.once('close', () => {
      clearTimeout(timer)
      held.delete(res)
    })
  }

  function releaseHeld(then: (req: IncomingMessage, res: ServerResponse) => void): void {
    const waiting = [...held]
    held.clear()
    for (const [res, { req, timer }] of waiting) {
      clearTimeout(timer)
      if (!res.writableEnded && !res.destroyed) then(req, res)
    }
  }

  function readyz(req: IncomingMessage, res: ServerResponse): void {
    if (state !== 'serving') {
      const failing = [state === 'starting' ? 'starting' : state === 'closing' ? 'shutting down' : 'start-up failed']
      return sendJson(req, res, 503, { ready: false, failing }, { 'retry-after': String(GATE_RETRY_AFTER_SECONDS), ...(state === 'closing' ? { connection: 'close' } : {}) })
    }
    readiness!().then(
      (result) => sendJson(req, res, result.ready ? 200 : 503, result, result.ready ? {} : { 'retry-after': String(GATE_RETRY_AFTER_SECONDS) }),
      () => sendJson(req, res, 503, { ready: false, failing: ['readiness probe'] }, { 'retry-after': String(GATE_RETRY_AFTER_SECONDS) }),
    )
  }

  const listener: Listener = (req, res) => {
    res.setHeader('x-content-type-options', 'nosniff')
    lingerThenDrop(req, res, lingerMs)
    const path = (req.url ?? '/').split('?')[0]
    const probe = req.method === 'GET' || req.method === 'HEAD'
    if (probe && path === '/healthz') return sendJson(req, res, 200, { ok: true, state: state === 'closing' ? 'stopping' : state }, state === 'closing' ? { connection: 'close' } : {})
    if (probe && path === '/readyz') return readyz(req, res)
    if (state === 'serving') return serve(req, res)
    if (state === 'starting') return hold(req, res)
    if (state === 'failed') return unavailable(res, 'the server could not start; try again later', 'ERR_NOT_STARTED')
    return unavailable(res, 'the server is shutting down; try again (another instance will answer)', 'ERR_SHUTTING_DOWN', true)
  }

  return {
    listener,
    get state() {
      return state
    },
    open(next, check) {
      if (state !== 'starting') return
      handler = next
      readiness = check
      state = 'serving'
      releaseHeld(serve)
    },
    fail() {
      state = 'failed'
      releaseHeld((_req, res) => unavailable(res, 'the server could not start; try again later', 'ERR_NOT_STARTED'))
    },
    close() {
      state = 'closing'
      releaseHeld((_req, res) => unavailable(res, 'the server is shutting down; try again (another instance will answer)', 'ERR_SHUTTING_DOWN', true))
      // Answers still to be written end their connection, so keep-alive clients reconnect elsewhere.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
    },
  }
}

/** 503 JSON with `Retry-After` (and `Connection: close` while stopping). */
function unavailable(res: ServerResponse, message: string, code: string, closeConnection = false): void {
  sendJson(undefined, res, 503, { success: false, message, code }, { 'retry-after': String(GATE_RETRY_AFTER_SECONDS), ...(closeConnection ? { connection: 'close' } : {}) })
}

function sendJson(req: IncomingMessage | undefined, res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.headersSent || res.writableEnded) return
  // The request id (set before the gate, observe/node-observer) goes in error bodies, as in the app's.
  const id = res.getHeader('x-request-id')
  const text = JSON.stringify(typeof id === 'string' && (body as { success?: unknown }).success === false ? { ...(body as object), requestId: id } : body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers })
  res.end(req?.method === 'HEAD' ? undefined : text)
}

/**
 * A request answered before its body arrived (a 413 that stopped reading, a 401 before the
 * body was needed) would keep its connection open for as long as the client keeps sending. Give
 * the client `ms` to read the answer, then drop the connection if the body is still coming.
 */
function lingerThenDrop(req: IncomingMessage, res: ServerResponse, ms: number): void {
  // Taken now: a request whose body reader was cancelled lets go of its socket.
  const socket = req.socket
  res.once('finish', () => {
    if (req.complete || socket.destroyed) return
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy()
    }, ms)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
}
