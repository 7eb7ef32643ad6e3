/**
 * `createLithoClient`: the HTTP API of a Litho server (docs/client.md) as typed calls. Render
 * calls go to `{render_url}` with a render key; designs, exports, analytics and keys go to
 * `{base_url}` with an OAuth access token. Every call is an openapi-fetch call typed by the
 * OpenAPI document (generated/openapi.ts); errors are thrown as {@link LithoApiError}; a 503 is
 * retried as its `Retry-After` says (retry.ts).
 *
 * @module client
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { signRenderUrl } from './signing.js'
import type { components, paths } from '../generated/openapi.js'
import { renderQuery, renderedImage, type Overrides, type RenderedImage, type RenderParams, type RenderResult } from './render.js'
import { retryingFetch, type FetchLike, type RetryOptions } from './retry.js'

type Schemas = components['schemas']

/** Options of {@link createLithoClient}. */
export interface LithoClientOptions {
  /** `{render_url}`, e.g. `https://render.example.com` (a path prefix is kept). */
  renderUrl: string
  /** `{base_url}`: the design, export, analytics and settings endpoints. @default renderUrl */
  baseUrl?: string
  /** A render key (`dma-api-key`), for the render calls. */
  renderKey?: string
  /** An OAuth access token for the other calls, or a function returning a fresh one before each call. */
  token?: string | (() => string | Promise<string>)
  /** Retries of a 503; `false`: none. @default 3 tries, honouring `Retry-After` up to 30 s */
  retry?: RetryOptions | false
  /** The `fetch` to send requests with. @default globalThis.fetch */
  fetch?: FetchLike
}

/** An answer that is not a success: its status, and Litho's error body (`message`, `code`). */
export class LithoApiError extends Error {
  override readonly name = 'LithoApiError'
  /** The HTTP status. */
  readonly status: number
  /** The error's code (`ERR_QUOTA_EXCEEDED`, …), when the body names one. */
  readonly code: string | undefined
  /** The parsed body (JSON when it was JSON, else its text). */
  readonly body: unknown
  /** The response's headers (`Retry-After`, `WWW-Authenticate`, the quota headers). */
  readonly headers: Headers

  constructor(response: Response, body: unknown) {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
    const message = typeof fields.message === 'string' ? fields.message : typeof fields.error_description === 'string' ? fields.error_description : typeof body === 'string' && body !== '' ? body : response.statusText
    super(`${response.status} ${message}`)
    this.status = response.status
    this.code = typeof fields.code === 'string' ? fields.code : typeof fields.error === 'string' ? fields.error : undefined
    this.body = body
    this.headers = response.headers
  }
}

/** The result of an openapi-fetch call: its data, or a thrown {@link LithoApiError}. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (!response.ok) throw new LithoApiError(response, error)
  return data as T
}

/** Options of a GET render: its parameters and overrides. */
export interface RenderOptions extends RenderParams {
  overrides?: Overrides
}

/** Options of a signed render link: a render key's id and link secret, and an optional expiry. */
export interface SignedLinkOptions extends RenderOptions {
  /** The render key's id (`_id`). */
  keyId: string
  /** Its link secret (`linkSecret`, shown when the key is created). */
  secret: string
  /** When the link stops working: a Date or unix seconds. @default never (until the key is revoked) */
  expiresAt?: Date | number
}

/** Options of a queued export: its parameters and overrides. */
export interface ExportOptions {
  /** `hosted` (a public URL) or `signed` (an expiring URL). */
  delivery: 'hosted' | 'signed'
  format?: RenderParams['format']
  quality?: number
  variation?: string
  /** Export the unpublished draft. */
  draft?: boolean
  /** Minutes a signed URL stays valid. */
  expiresIn?: number
  /** Called (signed, Standard Webhooks) when the job finishes. */
  webhookUrl?: string
  /** Overrides, dot-paths or nested. */
  overrides?: Record<string, unknown>
}

/**
 * A client of one Litho server.
 *
 * @example
 * const litho = createLithoClient({ renderUrl: 'https://render.example.com', renderKey: process.env.LITHO_KEY })
 * const card = await litho.render('Xq8…', { format: 'png', overrides: { 'title.text': 'Hello' } })
 */
export function createLithoClient(options: LithoClientOptions) {
  const renderUrl = options.renderUrl.replace(/(?<!\/)\/+$/, '')
  const baseUrl = (options.baseUrl ?? options.renderUrl).replace(/(?<!\/)\/+$/, '')
  const plainFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request))
  const fetch = options.retry === false ? plainFetch : retryingFetch(plainFetch, options.retry)
  const token = options.token

  const render: Client<paths> = createClient<paths>({ baseUrl: renderUrl, fetch, headers: options.renderKey ? { 'dma-api-key': options.renderKey } : {} })
  const base: Client<paths> = createClient<paths>({ baseUrl, fetch })
  const bearer: Middleware = {
    async onRequest({ request }) {
      if (token === undefined) return undefined
      request.headers.set('authorization', `Bearer ${typeof token === 'function' ? await token() : token}`)
      return request
    },
  }
  base.use(bearer)

  /** The GET render URL of a design (no key in it: send the key as a header, or sign the URL). */
  const renderUrlOf = (designId: string, { overrides, ...params }: RenderOptions = {}): string => {
    const query = renderQuery(params, overrides).toString()
    return `${renderUrl}/v1/${encodeURIComponent(designId)}${query ? `?${query}` : ''}`
  }

  async function renderGet(designId: string, opts: RenderOptions & { delivery: 'hosted' | 'signed' }): Promise<RenderResult>
  async function renderGet(designId: string, opts?: RenderOptions & { delivery?: 'stream' }): Promise<RenderedImage>
  async function renderGet(designId: string, { overrides, ...params }: RenderOptions = {}): Promise<RenderedImage | RenderResult> {
    const stream = (params.delivery ?? 'stream') === 'stream'
    const { data, error, response } = await render.GET('/v1/{design_id}', {
      params: { path: { design_id: designId } },
      querySerializer: () => renderQuery(params, overrides).toString(),
      parseAs: stream ? 'stream' : 'json',
    })
    if (!response.ok) throw new LithoApiError(response, error)
    return stream ? renderedImage(response.headers, data as unknown as ReadableStream<Uint8Array> | null) : (data as RenderResult)
  }

  async function renderPost(designId: string, overrides: Record<string, unknown>, opts: RenderParams & { delivery: 'hosted' | 'signed' }): Promise<RenderResult>
  async function renderPost(designId: string, overrides?: Record<string, unknown>, opts?: RenderParams & { delivery?: 'stream' }): Promise<RenderedImage>
  async function renderPost(designId: string, overrides: Record<string, unknown> = {}, params: RenderParams = {}): Promise<RenderedImage | RenderResult> {
    const stream = (params.delivery ?? 'stream') === 'stream'
    const { data, error, response } = await render.POST('/v1/{design_id}', {
      params: { path: { design_id: designId }, query: params },
      body: overrides,
      parseAs: stream ? 'stream' : 'json',
    })
    if (!response.ok) throw new LithoApiError(response, error)
    return stream ? renderedImage(response.headers, data as unknown as ReadableStream<Uint8Array> | null) : (data as RenderResult)
  }

  const exportJob = (exportId: string) => unwrap(base.GET('/analytics/exports/{exportId}', { params: { path: { exportId } } }))

  return {
    /** The GET render URL of a design, overrides in its query; no key in it. */
    renderUrl: renderUrlOf,
    /** A signed render link (docs/signed-render-links.md): a render URL that needs no key, for an `<img>`. */
    signedRenderUrl: ({ keyId, secret, expiresAt, ...rest }: SignedLinkOptions & { designId: string }): Promise<string> =>
      signRenderUrl({ url: renderUrlOf(rest.designId, rest), keyId, secret, ...(expiresAt !== undefined ? { expiresAt } : {}) }),
    /** `GET /v1/{design_id}`: the image (or, with `delivery: 'hosted' | 'signed'`, the stored file's URL). */
    render: renderGet,
    /** `POST /v1/{design_id}`: overrides in a JSON body (dot-paths or nested). */
    renderWithBody: renderPost,
    /** `POST /bulk`: up to 25 renders, stored (`hosted` or `signed`); all or nothing. */
    bulk: (request: Schemas['BulkRequest']): Promise<Schemas['BulkResponse']> => unwrap(render.POST('/bulk', { body: request })),
    designs: {
      /** `GET /designs/v2`: a page of your designs. */
      list: (query: { page?: number; limit?: number } = {}): Promise<Schemas['PaginatedDesigns']> =>
        unwrap(base.GET('/designs/v2', { params: { query: { ...(query.page !== undefined ? { $page: query.page } : {}), ...(query.limit !== undefined ? { $limit: query.limit } : {}) } } })),
      /** `GET /designs/v2/{id}`: one design, its document and draft. */
      get: (id: string): Promise<Schemas['Design']> => unwrap(base.GET('/designs/v2/{id}', { params: { path: { id } } })),
      /** `GET /designs/v2/{id}/config`: its render code, dynamic fields and variations. */
      config: (id: string): Promise<Schemas['RenderConfig']> => unwrap(base.GET('/designs/v2/{id}/config', { params: { path: { id } } })),
      /** `POST /designs/v2`: a new design (a draft unless `publish`). */
      create: (body: Schemas['CreateDesignRequest']): Promise<Schemas['Design']> => unwrap(base.POST('/designs/v2', { body })),
      /** `PATCH /designs/v2/{id}`: rename, or replace the draft. */
      update: (id: string, body: Schemas['UpdateDesignRequest']): Promise<Schemas['Design']> => unwrap(base.PATCH('/designs/v2/{id}', { params: { path: { id } }, body })),
      /** `POST /designs/v2/{id}/publish`: the draft becomes what renders. */
      publish: (id: string): Promise<Schemas['Design']> => unwrap(base.POST('/designs/v2/{id}/publish', { params: { path: { id } } })),
      /** `DELETE /designs/v2/{id}`. */
      delete: (id: string): Promise<Schemas['DeletedDesign']> => unwrap(base.DELETE('/designs/v2/{id}', { params: { path: { id } } })),
    },
    exports: {
      /** `POST /designs/v2/{id}/export/jobs`: queues an export; poll it with `get`, or wait with `wait`. */
      create: (designId: string, { overrides = {}, ...params }: ExportOptions): Promise<Schemas['ExportJobAck']> =>
        unwrap(base.POST('/designs/v2/{id}/export/jobs', { params: { path: { id: designId } }, body: { ...overrides, ...params } })),
      /** `GET /analytics/exports/{exportId}`: the job, and its file once it succeeded. */
      get: exportJob,
      /** `GET /analytics/exports`: your export jobs, newest first. */
      list: (query: { page?: number; limit?: number } = {}): Promise<Schemas['PaginatedExportJobs']> =>
        unwrap(base.GET('/analytics/exports', { params: { query: { ...(query.page !== undefined ? { $page: query.page } : {}), ...(query.limit !== undefined ? { $limit: query.limit } : {}) } } })),
      /** Polls a job until it has succeeded or failed (or `timeoutMs` passed: then it throws). */
      async wait(exportId: string, { intervalMs = 500, timeoutMs = 60_000 }: { intervalMs?: number; timeoutMs?: number } = {}): Promise<Schemas['ExportJob']> {
        const deadline = Date.now() + timeoutMs
        for (;;) {
          const job = await exportJob(exportId)
          if (job.status === 'succeeded' || job.status === 'failed') return job
          if (Date.now() + intervalMs > deadline) throw Object.assign(new Error(`export ${exportId} is still ${job.status} after ${timeoutMs} ms`), { code: 'ERR_TIMEOUT' })
          await new Promise((resolve) => setTimeout(resolve, intervalMs))
        }
      },
    },
    analytics: {
      /** `GET /analytics/api`: renders per hour, day, week, month or year. */
      usage: (query: { start?: string; end?: string; groupBy?: 'hour' | 'day' | 'week' | 'month' | 'year' } = {}): Promise<Schemas['UsageResponse']> => unwrap(base.GET('/analytics/api', { params: { query } })),
    },
    keys: {
      /** `GET /settings/api-keys`: your render keys (never their secrets). */
      list: (): Promise<Schemas['ApiKeyList']> => unwrap(base.GET('/settings/api-keys')),
      /** `POST /settings/api-keys`: a new render key; its secret (and link secret) are in this answer only. */
      create: (name?: string): Promise<Schemas['CreatedApiKey']> => unwrap(base.POST('/settings/api-keys', { body: name === undefined ? {} : { name } })),
      /** `DELETE /settings/api-keys/{id}`: the key stops working at once. */
      revoke: (id: string): Promise<Schemas['DeletedApiKey']> => unwrap(base.DELETE('/settings/api-keys/{id}', { params: { path: { id } } })),
    },
    /** The underlying openapi-fetch clients, typed by the OpenAPI document, for every other endpoint: `render` on `{render_url}` (with the render key), `base` on `{base_url}` (with the token). */
    api: { render, base },
  }
}

/** A client made by {@link createLithoClient}. */
export type LithoClient = ReturnType<typeof createLithoClient>
