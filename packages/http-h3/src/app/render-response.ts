/**
 * The answers of renders and exports: bytes with their type and file name, or the JSON result
 * of a stored delivery, each with the quota headers every metered response carries.
 *
 * @module app/render-response
 */
import type { QuotaState, RenderWarning } from '@litho/core'
import { FastResponse } from 'srvx'
import { json } from './errors.js'

/** Quota headers on every metered response, so clients can pace themselves, e.g. `quotaHeaders(result.quota)`. */
export function quotaHeaders(quota: QuotaState): Record<string, string> {
  return {
    'x-quota-limit': String(quota.limit),
    'x-quota-remaining': String(quota.remaining),
    'x-quota-reset': quota.resetAt.toISOString(),
  }
}

/** What a render or an export returns: bytes (`stream`) or a JSON body (stored deliveries). */
export type RenderOutcome = { warnings: readonly RenderWarning[]; quota: QuotaState } & (
  | { delivery: 'stream'; bytes: Uint8Array; contentType: string; format: string; variation: string; cache?: 'hit' | 'miss' }
  | { delivery: 'hosted' | 'signed'; body: unknown }
)

/**
 * The response of a render or an export: quota and warning headers (`X-Litho-Ignored-Overrides`
 * lists the ignored keys, `X-Litho-Override-Suggestions` the key meant for each typo), then the JSON body, or the bytes with their type, a file name and
 * `X-Litho-Variation` (and `X-Litho-Cache: hit|miss` with an output cache). `private, no-store`
 * unless `headers` say otherwise (a GET render's ETag, app/conditional-render): every fetch is a metered render.
 *
 * @example renderOutcomeResponse(result, { name: renderCode, disposition: 'inline' })
 */
export function renderOutcomeResponse(result: RenderOutcome, options: { name: string; disposition: 'inline' | 'attachment'; headers?: Record<string, string> }): Response {
  const headers: Record<string, string> = { ...quotaHeaders(result.quota), 'cache-control': 'private, no-store', ...options.headers }
  const ignored = result.warnings.filter((w) => w.code === 'override_ignored' && w.key).map((w) => encodeURIComponent(w.key!))
  if (ignored.length > 0) headers['x-litho-ignored-overrides'] = ignored.join(',')
  // "Did you mean": `ignored=suggested` pairs, for the ignored keys that look like a typo of a real one.
  const suggested = result.warnings.filter((w) => w.code === 'override_ignored' && w.key && w.suggestion).map((w) => `${encodeURIComponent(w.key!)}=${encodeURIComponent(w.suggestion!)}`)
  if (suggested.length > 0) headers['x-litho-override-suggestions'] = suggested.join(',')
  if (result.warnings.length > 0) headers['x-litho-warnings'] = String(result.warnings.length)
  if (result.delivery !== 'stream') return json(result.body, 200, headers)
  const extension = result.format === 'jpeg' ? 'jpg' : result.format
  return new FastResponse(result.bytes, {
    status: 200,
    headers: {
      ...headers,
      'content-type': result.contentType,
      'content-length': String(result.bytes.byteLength),
      'content-disposition': `${options.disposition}; filename="${options.name.replace(/[^A-Za-z0-9_-]/g, '')}.${extension}"`,
      'x-litho-variation': result.variation,
      // Whether the output cache answered (docs/performance.md): for operators and benches.
      ...(result.cache ? { 'x-litho-cache': result.cache } : {}),
    },
  })
}
