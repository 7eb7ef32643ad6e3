// Calls to the documented API (docs/http-reference.md) with the access token; a 401 refreshes
// the token once and retries.
import { accessToken, BASE_URL, tokenRejected } from './auth.js'
import type { DesignDocument } from './document.js'

/** An API error: the status and the server's `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message)
  }
}

/** A fetch of `{base_url}{path}` with the bearer token; the raw response. */
export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const token = await accessToken()
    const headers = new Headers(init.headers)
    if (token) headers.set('authorization', `Bearer ${token}`)
    const response = await fetch(`${BASE_URL}${path}`, { ...init, headers })
    if (response.status !== 401 || attempt > 0 || !token || !(await tokenRejected())) return response
  }
}

/** A JSON call: the parsed body, or an ApiError with the server's message. */
export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init
  const request: RequestInit = json === undefined ? rest : { ...rest, body: JSON.stringify(json), headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) } }
  const response = await call(path, request)
  const text = await response.text()
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = text
  }
  if (!response.ok) throw new ApiError(response.status, (body as { message?: string } | null)?.message ?? `HTTP ${response.status}`, body)
  return body as T
}

/** The query string of `params`, leaving out empty values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

// The shapes of docs/http-reference.md the console reads.
export interface DesignSummary {
  _id: string
  name: string
  updatedAt: string
}
export interface Page<T> {
  docs: T[]
  page: number
  totalPages: number
  hasNextPage: boolean
  totalDocs?: number
}
export interface Design {
  _id: string
  name: string
  renderCode: string
  createdAt: string
  updatedAt: string
  design: DesignDocument | null
  draft?: DesignDocument
}
export type { DesignDocument } from './document.js'
export interface RenderConfig {
  render: string
  data: { pure: Record<string, unknown>; flatten: Record<string, unknown> }
  variations: Array<{ id: string; name: string; dimensions: { width: number; height: number } }>
}
export interface LayoutBox {
  key: string
  type: string
  x: number
  y: number
  width: number
  height: number
  parent?: string
}
export interface Preview {
  image: string
  width: number
  height: number
  scale: number
  warnings: Array<{ code: string; key?: string; message: string }>
  layout?: { width: number; height: number; components: LayoutBox[] }
}
export interface ApiKey {
  _id: string
  name: string
  active: boolean
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}
export interface CreatedKey extends ApiKey {
  key: string
  linkSecret?: string
}
