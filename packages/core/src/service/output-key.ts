/**
 * The identity of a render's output: one hash of everything that decides its bytes, used as the
 * output cache's key and as the strong `ETag` of GET renders (docs/performance.md, "Output cache").
 *
 * @module service/output-key
 */
import { createHash } from 'node:crypto'
import type { Component, DesignDocument } from '../design/schema.js'
import { indexComponents, walkComponents } from '../design/walk.js'
import type { OutputFormat } from '../render/types.js'
import type { PreparedRender } from './prepare-render.js'

/**
 * Changes whenever rendering itself changes in a way that changes bytes for the same inputs
 * (a new renderer, new defaults), so that caches shared across versions and clients' ETags do
 * not serve output of the old code. Bump it with such a change.
 */
export const OUTPUT_KEY_VERSION = 'litho-output-2'

/** What decides a render's bytes, besides the renderer's own code. */
export interface OutputKeyInput {
  /** The account that owns the design (and whose render it is). */
  accountId: string
  /** The design's `_id`. */
  designId: string
  /** What changes on every update and publish of the design: its record's `updatedAt` and a digest of its content (`loadPublishedDesign`). */
  designVersion: string
  prepared: Pick<PreparedRender, 'document' | 'resolved' | 'variation' | 'width' | 'height'>
  format: OutputFormat
  quality: number
}

/**
 * The output key of a render: base64url SHA-256 (43 characters) over the account, the design and
 * its version, the overrides as applied (each overridden component as validated, in canonical
 * JSON, so `title.text=Hi` in a query and `{"title":{"text":"Hi"}}` in a body are one key), the
 * variation, the size, the format and the quality. Ignored overrides are not part of it: they
 * change no byte (their warnings are the request's own).
 *
 * @example outputKey({ accountId: 'u_1', designId: 'd_3Jx9', designVersion: '2026-11-26T14:00:00.000Z', prepared, format: 'jpeg', quality: 80 }) // 'Qm2L…'
 */
export function outputKey(input: OutputKeyInput): string {
  const { prepared } = input
  const overridden = [...new Set(prepared.resolved.overridden.map((key) => key.split('.')[0] ?? ''))].sort()
  const byKey = overridden.length > 0 ? indexComponents(prepared.document.components) : new Map<string, Component>()
  const parts = [
    OUTPUT_KEY_VERSION,
    input.accountId,
    input.designId,
    input.designVersion,
    overridden.map((key) => [key, byKey.get(key) ?? null]),
    prepared.variation,
    prepared.width,
    prepared.height,
    input.format,
    input.quality,
  ]
  return createHash('sha256').update(canonicalJson(parts)).digest('base64url')
}

/**
 * Whether a render of `document` fetches anything over the network (an image or a font face
 * with an http(s) `src`): what such a URL serves may change, so its output is cached no longer
 * than the renderer's image cache keeps the fetched bytes.
 */
export function usesRemoteAssets(document: DesignDocument): boolean {
  if (document.fonts.some((font) => isRemote(font.src))) return true
  let remote = false
  walkComponents(document.components, (component) => {
    if (component.type === 'image' && isRemote(component.src)) remote = true
  })
  return remote
}

function isRemote(src: string | undefined): boolean {
  return src !== undefined && /^\s*https?:/i.test(src)
}

/** JSON with object keys sorted at every level (arrays keep their order), `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key]
    return sorted
  })
}
