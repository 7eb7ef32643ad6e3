// A webhook retried later carries a signed URL that is valid when it is delivered, or says that
// the file's expiry passed and how to get a new one (docs/webhooks.md, "Signed URLs and retries").
import { randomBytes } from 'node:crypto'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryJobStore } from '@litho/storage-adapters/job-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { expect, it } from 'vitest'
import type { FileStore } from '../../src/contracts/index.js'
import { createExportJobHandler, createUrlSigner, createWebhookSecrets, enqueueExportJob, type RenderResult, type UrlSigner, type WebhookSendRequest } from '../../src/index.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const document = { version: 2, width: 200, height: 100, background: '#ffffff', components: [{ key: 'title', type: 'text', width: 180, height: 40, text: 'Hi' }] }
const BASE = 'https://render.example.test/files'

async function setup(files?: (signer: UrlSigner) => FileStore) {
  let current = new Date('2026-11-23T12:00:00Z')
  const clock = { now: () => current }
  const designs = memoryDesignStore()
  await designs.create({ id: 'd_0001', ownerId: alice.id, name: 'Card', renderCode: `rc_${randomBytes(12).toString('base64url')}`, design: document, draft: null, createdAt: current.toISOString(), updatedAt: current.toISOString() })
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const sent: Array<WebhookSendRequest & { payload: Record<string, unknown> }> = []
  let answers: boolean[] = []
  const jobs = memoryJobStore()
  const services = {
    designs,
    files: files ? files(signer) : memoryFileStore({ publicBaseUrl: BASE, signer }),
    meter: memoryMeter(),
    renderer: { render: async (): Promise<RenderResult> => ({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png', format: 'png', width: 200, height: 100, variation: 'master', warnings: [] }) },
    jobs,
    queue: { enqueue: async () => {} },
    clock,
    webhooks: {
      // The receiver is down for the first answers it is given, then up.
      sender: { send: async (request: WebhookSendRequest) => (sent.push(request as never), answers.shift() ?? true ? { ok: true, status: 204 } : { ok: false, status: 503, error: 'status' as const }) },
      secrets: createWebhookSecrets(memoryAuthStateStore()),
      policy: { allowHttp: false, allowNetworks: [] },
      scheduleMs: [0, 0, 0, 0],
    },
  }
  const handler = createExportJobHandler(services as never)
  const ack = await enqueueExportJob(services as never, { account: alice, id: 'd_0001', request: { delivery: 'signed', params: { expiresIn: 10 }, overrides: {}, webhookUrl: 'https://hooks.example.test/litho' } })
  const id = ack.body.exportId
  /** Checks a delivered URL with the file store's signer at the service clock's time. */
  const verify = (url: string) => {
    const parsed = new URL(url)
    return signer.verify({ path: parsed.pathname.slice('/files'.length), query: parsed.searchParams, now: current })
  }
  return {
    id,
    sent,
    verify,
    jobs,
    fail: (n: number) => (answers = Array.from({ length: n }, () => false)),
    advance: (ms: number) => (current = new Date(current.getTime() + ms)),
    run: () => handler({ id, attempt: 1 }),
  }
}

it('webhook › a retry within the file expiry carries a URL signed at that attempt, valid when delivered', async () => {
  const t = await setup()
  t.fail(1)
  await t.run() // rendered at 12:00 (expires 12:10), first attempt refused
  expect(t.sent).toHaveLength(1)
  t.advance(9 * 60_000) // 12:09: one minute left
  await t.run()
  expect(t.sent).toHaveLength(2)
  const second = t.sent[1]!.payload
  expect(second).toMatchObject({ type: 'export.succeeded', expiresAt: '2026-11-23T12:10:00.000Z' })
  expect(second.expired).toBeUndefined()
  expect(t.verify(second.url as string)).toEqual({ ok: true, expiresAt: new Date('2026-11-23T12:10:00.000Z') })
  expect((await t.jobs.get(t.id))!.webhook!.state).toBe('delivered')
})

it('webhook › a retry after the file expiry says expired: true, has no URL, and gives the poll URL and how to re-export', async () => {
  const t = await setup()
  t.fail(1)
  await t.run()
  t.advance(10 * 60_000 + 1) // just past 12:10
  await t.run()
  const payload = t.sent[1]!.payload
  expect(payload).toMatchObject({ type: 'export.succeeded', exportId: t.id, expired: true, expiresAt: '2026-11-23T12:10:00.000Z', pollUrl: `/analytics/exports/${t.id}` })
  expect(payload.url).toBeUndefined()
  expect(payload.message).toMatch(/expired at 2026-11-23T12:10:00.000Z.*export again \(POST \/designs\/v2\/d_0001\/export\/jobs\) with a longer expiresIn/)
  // The first attempt, in time, had a valid URL and no flag.
  expect(t.sent[0]!.payload.expired).toBeUndefined()
  expect(typeof t.sent[0]!.payload.url).toBe('string')
})

it('webhook › each attempt signs with the key in force then: a URL signed before a key rotation is not reused', async () => {
  // The file store's signer changes between attempts (the old key is retired).
  let active: UrlSigner | undefined
  const rotated = createUrlSigner({ keys: [{ id: 'k2', secret: randomBytes(32) }] })
  const t = await setup((signer) => {
    active = signer
    const store = memoryFileStore({ publicBaseUrl: BASE, signer })
    const viaRotated = memoryFileStore({ publicBaseUrl: BASE, signer: rotated })
    return { ...store, name: store.name, capabilities: store.capabilities, put: store.put, get: store.get, publicUrl: store.publicUrl, delete: store.delete, signedUrl: (key, options) => (active === rotated ? viaRotated.signedUrl(key, options) : store.signedUrl(key, options)) } as FileStore
  })
  t.fail(1)
  await t.run()
  active = rotated
  t.advance(60_000)
  await t.run()
  const url = new URL(t.sent[1]!.payload.url as string)
  expect(url.searchParams.get('kid')).toBe('k2')
  expect(rotated.verify({ path: url.pathname.slice('/files'.length), query: url.searchParams, now: new Date('2026-11-23T12:01:00Z') })).toMatchObject({ ok: true })
  expect(new URL(t.sent[0]!.payload.url as string).searchParams.get('kid')).toBe('k1')
})
