// An Express app that mounts Litho's HTTP interface (createLithoApp, an h3 app) at /litho with
// h3's toNodeHandler, next to its own routes. The stores are in memory here and one account,
// render key and design are seeded, so the example runs alone; a real app passes its own
// backends (docs/backends/README.md) and creates accounts with `litho users create`.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createApiKey, createDesign, createRenderer, createUrlSigner } from '@litho/core'
import { createRenderKey } from '@litho/auth-adapters'
import { createLithoApp } from '@litho/http-h3'
import { memoryAccountStore, memoryDesignStore, memoryFileStore, memoryMeter } from '@litho/storage-adapters'
import express from 'express'
import { toNodeHandler } from 'h3'

/** What the example seeded: a render key (its secret, id and link secret) and a design's render code. */
export interface Seeded {
  key: string
  keyId: string
  linkSecret: string
  renderCode: string
}

/**
 * Starts the app on `port` (0: any free port) and returns its address, the seeded key and
 * design, and `close`.
 */
export async function startExpressApp(port = 0) {
  const app = express()
  const server = app.listen(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const renderUrl = `${origin}/litho`

  const accounts = memoryAccountStore()
  const designs = memoryDesignStore()
  const meter = memoryMeter()
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const files = memoryFileStore({ publicBaseUrl: `${renderUrl}/files`, signer })
  // The master key link secrets are derived from: keep it out of the stores (an env variable).
  const renderLinks = { masterKey: process.env.LITHO_LINK_MASTER_KEY ?? randomBytes(32).toString('base64url') }
  const renderer = createRenderer()
  const litho = createLithoApp({ designs, accounts, files, meter, signer, renderer, renderLinks, renderUrl })

  // Litho under /litho (Express strips the prefix; Litho's routes are relative). Mount no body
  // parser before it: Litho reads its own bodies, through its limits.
  app.use('/litho', toNodeHandler(litho))
  app.get('/', (_req, res) => void res.type('text').send(`Litho is mounted at ${renderUrl}\n`))

  const now = new Date().toISOString()
  await accounts.createUser({ id: 'u_example', email: 'ann@example.com', passwordHash: 'scrypt$not-used', plan: 'pro', createdAt: now, updatedAt: now })
  const account = { id: 'u_example', plan: 'pro' as const }
  const created = await createApiKey({ accounts, meter, renderLinks }, { account, name: 'example', newKey: createRenderKey })
  const document = JSON.parse(await readFile(new URL('../social-card.json', import.meta.url), 'utf8')) as Record<string, unknown>
  const design = await createDesign({ designs, meter }, { account, name: 'Launch card', document, publish: true })
  const seeded: Seeded = { key: created.key, keyId: created._id, linkSecret: created.linkSecret!, renderCode: design.renderCode }

  return {
    origin,
    renderUrl,
    seeded,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await renderer.close()
    },
  }
}

// `npx tsx examples/express/app.ts` runs it on port 3000.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { renderUrl, seeded } = await startExpressApp(Number(process.env.PORT ?? 3000))
  console.log(`curl -H 'dma-api-key: ${seeded.key}' '${renderUrl}/v1/${seeded.renderCode}?format=png' -o card.png`)
}
