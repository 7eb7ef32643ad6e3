// An in-process Litho app on memory stores, with helpers to create accounts, keys and designs.
import { randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import { createExportJobHandler, createRenderer, createUrlSigner, createWebhookSecrets, createWebhookSender, type Clock, type ExportJobServices, type NetworkPolicy, type Renderer, type UrlSigner } from '@litho/core'
import type { AccountStore, DesignStore, FileStore, JobQueue, JobStore, Meter, RetentionIndex, UserRecord } from '@litho/core/contracts'
import { memoryJobQueue } from '@litho/storage-adapters/job-queue'
import { memoryJobStore } from '@litho/storage-adapters/job-store'
import { createAuthorizationServer, createRenderKey, hashPassword, type AuthorizationServer, type AuthorizationServerOptions } from '@litho/auth-adapters'
import { memoryAccountStore, memoryDesignStore, memoryFileStore, memoryMeter } from '@litho/storage-adapters'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { memoryRetentionIndex } from '@litho/storage-adapters/retention-index'
import type { H3 } from 'h3'
import { createLithoApp, type LithoAppOptions } from '../src/app/create-litho-app.js'

export const RENDER_URL = 'http://render.test'

/** A small but complete design: a background, a dynamic title, a dynamic photo slot, a variation. */
export const SMALL_DESIGN = {
  version: 2,
  name: 'Small card',
  width: 240,
  height: 160,
  background: '#0f172a',
  components: [
    { type: 'text', key: 'title', x: 10, y: 10, width: 220, height: 60, text: 'Hello', fontSize: 28, color: '#ffffff', dynamic: ['text', 'color'] },
    { type: 'shape', key: 'badge', x: 10, y: 100, width: 50, height: 50, fill: '#f59e0b', dynamic: ['fill'] },
    { type: 'image', key: 'photo', x: 150, y: 90, width: 60, height: 60, dynamic: ['src'] },
  ],
  variations: [{ id: 'square', name: 'Square', width: 160, height: 160 }],
}

/** A clock tests can move. */
export function steppingClock(start = new Date('2026-11-23T12:00:00Z')): Clock & { set(date: Date): void; advance(ms: number): void } {
  let now = start.getTime()
  return { now: () => new Date(now), set: (date) => void (now = date.getTime()), advance: (ms) => void (now += ms) }
}

export interface Harness {
  app: H3
  designs: DesignStore
  accounts: AccountStore
  files: FileStore
  meter: Meter
  /** Records of stored renders (for `sweepStoredFiles`). */
  retention: RetentionIndex
  signer: UrlSigner
  clock: ReturnType<typeof steppingClock>
  /** The built-in authorization server, with `oauth` in the options. */
  oauth?: AuthorizationServer
  /** Its default org. */
  orgId?: string
  /** With `withJobs`: the job store and the started in-memory queue, and the webhook secrets. */
  jobs?: ExportJobServices
  /** Calls the app like a client would. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** A user; with `password`, one that can sign in (hashed with cheap scrypt parameters for speed). */
  createUser(plan?: UserRecord['plan'], password?: string): Promise<UserRecord>
  createKey(user: UserRecord, options?: { active?: boolean }): Promise<string>
  /** Stores a design; published unless `draftOnly`. Returns its render code. */
  createDesign(user: UserRecord, document?: unknown, options?: { draftOnly?: boolean }): Promise<string>
  close(): Promise<void>
}

/** Options of {@link createHarness}: app options, and `withOAuth` for the built-in authorization server. */
export type HarnessOptions = Partial<LithoAppOptions> & {
  renderer?: Renderer
  withOAuth?: Partial<AuthorizationServerOptions>
  /** Export jobs on memory, run in-process; webhooks may reach loopback over http. */
  withJobs?: { scheduleMs?: number[]; baseRetryMs?: number; policy?: NetworkPolicy }
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { withOAuth, withJobs, ...overrides } = options
  const designs = memoryDesignStore()
  const accounts = memoryAccountStore()
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const files = memoryFileStore({ publicBaseUrl: `${RENDER_URL}/files`, signer })
  const meter = memoryMeter()
  const retention = memoryRetentionIndex()
  const clock = steppingClock()
  const renderer = overrides.renderer ?? createRenderer()
  let oauth: AuthorizationServer | undefined
  let orgId: string | undefined
  if (withOAuth) {
    oauth = createAuthorizationServer({ authUrl: RENDER_URL, resources: [RENDER_URL, `${RENDER_URL}/api/mcp`], state: memoryAuthStateStore(), accounts, meter, clock, onError: () => {}, ...withOAuth })
    orgId = await oauth.ensureDefaultOrg('acme')
  }
  let jobs: (ExportJobServices & { queue: JobQueue; jobs: JobStore }) | undefined
  if (withJobs) {
    const policy = withJobs.policy ?? { allowHttp: true, allowNetworks: ['127.0.0.0/8', '::1/128'] }
    const authState = memoryAuthStateStore()
    jobs = {
      designs,
      files,
      meter,
      retention,
      renderer,
      clock,
      jobs: memoryJobStore(),
      queue: memoryJobQueue({ maxRuns: 20, closeTimeoutMs: 5_000 }),
      webhooks: { sender: createWebhookSender({ policy, timeoutMs: 2_000 }), secrets: createWebhookSecrets(authState), policy, ...(withJobs.scheduleMs ? { scheduleMs: withJobs.scheduleMs } : {}) },
      baseRetryMs: withJobs.baseRetryMs ?? 10,
      ...(overrides.plans ? { plans: overrides.plans } : {}),
    }
    const runJob = createExportJobHandler(jobs)
    jobs.queue.start(runJob, { concurrency: 2, onGiveUp: runJob.onGiveUp })
  }
  const app = createLithoApp({
    designs,
    accounts,
    files,
    meter,
    retention,
    signer,
    clock,
    renderer,
    renderUrl: RENDER_URL,
    onError: () => {},
    ...(oauth ? { oauth } : {}),
    ...(jobs ? { jobs: { jobs: jobs.jobs, queue: jobs.queue, webhooks: jobs.webhooks } } : {}),
    ...overrides,
  })
  const stamp = () => clock.now().toISOString()
  return {
    app,
    designs,
    accounts,
    files,
    meter,
    retention,
    signer,
    clock,
    oauth,
    orgId,
    jobs,
    fetch: async (path, init) => app.fetch(new Request(new URL(path, RENDER_URL), init)),
    async createUser(plan = 'free', password?: string) {
      const id = `u_${randomBytes(8).toString('base64url')}`
      const passwordHash = password ? await hashPassword(password, { N: 2 ** 10, r: 8, p: 1 }) : 'scrypt$test'
      const user: UserRecord = { id, email: `${id.toLowerCase()}@example.com`, passwordHash, plan, createdAt: stamp(), updatedAt: stamp() }
      await accounts.createUser(user)
      return user
    },
    async createKey(user, options = {}) {
      const key = createRenderKey()
      await accounts.createKey({ id: key.id, userId: user.id, name: 'test', hash: key.hash, prefix: key.displayPrefix, active: options.active ?? true, createdAt: stamp(), lastUsedAt: null })
      return key.secret
    },
    async createDesign(user, document = SMALL_DESIGN, options = {}) {
      const renderCode = randomBytes(16).toString('base64url')
      await designs.create({
        id: `d_${randomBytes(8).toString('base64url')}`,
        ownerId: user.id,
        name: 'test design',
        renderCode,
        design: options.draftOnly ? null : document,
        draft: options.draftOnly ? document : null,
        createdAt: stamp(),
        updatedAt: stamp(),
      })
      return renderCode
    },
    async close() {
      await jobs?.queue.close()
      await renderer.close()
    },
  }
}

/** The meter window of the harness clock's month. */
export const WINDOW = '2026-11'

/** A harness with one user on `plan`, an active render key and a published design. */
export async function createFixture(plan: UserRecord['plan'] = 'pro'): Promise<{ h: Harness; user: UserRecord; key: string; code: string }> {
  const h = await createHarness()
  const user = await h.createUser(plan)
  return { h, user, key: await h.createKey(user), code: await h.createDesign(user) }
}

/** Expects a JSON error body `{ success: false, message }` with `status`, whose message matches. */
export async function expectError(response: Response, status: number, message: RegExp): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as Record<string, unknown>
  expect(body.success).toBe(false)
  expect(body.message).toMatch(message)
  return body
}

/** The first bytes of each format. */
export function sniff(bytes: Uint8Array): string {
  const b = Buffer.from(bytes)
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp'
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf'
  return 'unknown'
}
