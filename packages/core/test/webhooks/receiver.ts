/**
 * A real local webhook receiver for the sender tests: node:http on 127.0.0.1 (port 0), which
 * records every TCP connection and request (raw body and headers) and answers with `respond`.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface ReceivedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string
  port: number
  /** TCP connections accepted so far. */
  connections: number
  /** Connections closed so far. */
  closedConnections: number
  requests: ReceivedRequest[]
  close(): Promise<void>
}

/** How the receiver answers; `undefined` = never answer. */
export type Respond = (request: ReceivedRequest, response: http.ServerResponse) => void

export async function startReceiver(respond: Respond = (_req, res) => res.writeHead(204).end(), host = '127.0.0.1'): Promise<Receiver> {
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value
      const received: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') }
      receiver.requests.push(received)
      respond(received, res)
    })
  })
  server.on('connection', (socket: Socket) => {
    receiver.connections++
    sockets.add(socket)
    socket.on('close', () => {
      receiver.closedConnections++
      sockets.delete(socket)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const receiver: Receiver = {
    origin: `http://${host}:${port}`,
    port,
    connections: 0,
    closedConnections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  return receiver
}
