/**
 * Render URLs: the query of `GET {render_url}/v1/{design_id}` (render parameters and override
 * dot-paths), and what a stream render answers.
 *
 * @module render
 */
import type { components } from '../generated/openapi.js'

/** An output format. */
export type RenderFormat = 'png' | 'jpeg' | 'webp' | 'pdf'

/** The parameters of a render (docs/http-reference.md, `GET /v1/{design_id}`). */
export interface RenderParams {
  format?: RenderFormat
  /** JPEG quality, 1-100. */
  quality?: number
  /** A variation id of the design. */
  variation?: string
  /** `stream` (the bytes, the default), `hosted` or `signed` (stored, answered with its URL). */
  delivery?: 'stream' | 'hosted' | 'signed'
  /** Minutes a signed URL stays valid (`delivery: 'signed'`). */
  expiresIn?: number
  /** Refuse override keys that name no overridable field (400) instead of ignoring them. */
  strict?: boolean
}

/** Override values by dot-path, e.g. `{ 'title.text': 'Hello', 'badge.fill': '#f59e0b' }`. */
export type Overrides = Record<string, string | number | boolean>

/** A stream render: the image (or PDF) and what its headers say. */
export interface RenderedImage {
  bytes: Uint8Array
  /** `image/png`, `image/jpeg`, `image/webp` or `application/pdf`. */
  contentType: string
  /** The render's strong entity tag (send it as `ifNoneMatch` to revalidate). */
  etag: string | null
  /** Override keys the server ignored (`X-Litho-Ignored-Overrides`, decoded). */
  ignoredOverrides: string[]
  /** Renders left in this quota window, when the server says. */
  quotaRemaining: number | null
  headers: Headers
}

/** A hosted or signed render: the stored file's URL. */
export type RenderResult = components['schemas']['RenderResult']

/** The parameter names of the render query (override dot-paths must differ from them). */
const PARAM_NAMES: ReadonlyArray<keyof RenderParams> = ['format', 'quality', 'variation', 'delivery', 'expiresIn', 'strict']

/**
 * The query of a GET render: the parameters, then each override as `<dot-path>=<value>`.
 *
 * @example renderQuery({ format: 'png' }, { 'title.text': 'Hi' }).toString() // 'format=png&title.text=Hi'
 */
export function renderQuery(params: RenderParams = {}, overrides: Overrides = {}): URLSearchParams {
  const query = new URLSearchParams()
  for (const name of PARAM_NAMES) {
    const value = params[name]
    if (value !== undefined) query.set(name, String(value))
  }
  for (const [path, value] of Object.entries(overrides)) {
    if ((PARAM_NAMES as readonly string[]).includes(path)) throw Object.assign(new TypeError(`Expected override ${JSON.stringify(path)} to be a component dot-path, not a render parameter: pass it in params`), { code: 'ERR_INVALID_ARG_VALUE' })
    query.append(path, String(value))
  }
  return query
}

/** A stream render from its response's headers and body. */
export async function renderedImage(headers: Headers, body: ReadableStream<Uint8Array> | null): Promise<RenderedImage> {
  const ignored = headers.get('x-litho-ignored-overrides')
  const remaining = headers.get('x-quota-remaining')
  return {
    bytes: new Uint8Array(await new Response(body).arrayBuffer()),
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    etag: headers.get('etag'),
    ignoredOverrides: ignored ? ignored.split(',').map((key) => decodeURIComponent(key.trim())) : [],
    quotaRemaining: remaining === null ? null : Number(remaining),
    headers,
  }
}
