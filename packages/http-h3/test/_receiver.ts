// A webhook receiver on loopback: it verifies every delivery with the `standardwebhooks`
// package (an independent implementation) and answers with the next planned status, then 200.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export class Receiver {
  readonly deliveries: Array<{ headers: IncomingMessage['headers']; body: string; verified: unknown; status: number }> = []
  plan: number[] = []
  secret = ''
  private server!: Server
  url = ''
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        let verified: unknown = null
        try {
          verified = new Webhook(this.secret).verify(body, req.headers as Record<string, string>)
        } catch {
          verified = null
        }
        const status = this.plan.shift() ?? 200
        this.deliveries.push({ headers: req.headers, body, verified, status })
        res.writeHead(status).end()
      })
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

