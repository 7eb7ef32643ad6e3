/**
 * Design previews, transport-free (the MCP tool `render_preview`): one of the account's designs,
 * draft or published, rendered to a PNG no larger than `maxSide`, with the overrides and
 * variation a render would take. An image that cannot be loaded is left out with a warning.
 *
 * @module service/preview
 */
import { loadSharp } from '../_internal/load-sharp.js'
import { attachAssets, type AssetSource } from '../assets/asset-source.js'
import * as z from 'zod'
import { expected, invalidRequest, wholeNumber } from '../_internal/messages.js'
import { applyOverrides, dynamicOverrideKeys } from '../design/overrides.js'
import { MAX_DIMENSION, type Component, type DesignDocument } from '../design/schema.js'
import { mapComponents, walkComponents } from '../design/walk.js'
import { LithoError, formatIssues } from '../errors.js'
import type { RenderLayout } from '../render/component-layout.js'
import { DEFAULT_QUALITY } from '../render/defaults.js'
import type { RenderResult } from '../render/render-document.js'
import { resolveDesign } from '../render/resolve-document.js'
import type { RenderWarning } from '../render/types.js'
import { parseInput, validated } from './check-document.js'
import { designIdSchema } from './design-inputs.js'
import { documentSchema } from '../design/patch-schema.js'
import type { AuthoringServices } from './design-writes.js'
import { isPresent, loadOwnDesign } from './designs.js'
import type { DesignRecord } from '../contracts/design-store.js'
import type { BearerAccount } from './bearer-services.js'
import type { RendererPort } from './prepare-render.js'

/** The `document` of a preview, checked as `update_design`'s (an object first, then the design rules). */
const UnsavedDocumentSchema = z.object({ document: documentSchema })

/** Long side of a preview when `maxSide` is absent, in pixels. */
export const DEFAULT_PREVIEW_MAX_SIDE = 1024
/** Smallest `maxSide` of a preview, in pixels. */
export const MIN_PREVIEW_MAX_SIDE = 16

/**
 * The agent-facing input of {@link previewDesign} (the `render_preview` tool).
 *
 * @example PreviewDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a', overrides: { 'title.text': 'Hi' }, variation: 'story' })
 */
export const PreviewDesignInputSchema = z.object({
  id: designIdSchema,
  source: z
    .enum(['draft', 'published'], expected('"draft" or "published"'))
    .optional()
    .meta({ description: 'Which version to render: "draft" (the unpublished changes) or "published" (what the render URL renders). Omitted: the draft if there is one, else the published version.' }),
  overrides: z
    .record(z.string(), z.unknown(), expected('an object of "key.field" values'))
    .optional()
    .meta({
      description:
        'Values to try, as a render would receive them: dot-path keys `{ "title.text": "Hi", "photo.src": "https://…" }` or nested `{ "title": { "text": "Hi" } }`. ' +
        'Only a component\'s dynamic fields can be overridden; the valid keys are those of `data.flatten` from `get_render_config`. Keys that name nothing are ignored and listed in the warnings.',
    }),
  variation: z
    .string(expected('a variation id'))
    .max(64, expected('a variation id of at most 64 characters'))
    .optional()
    .meta({ description: 'A variation id (`variations[].id` of the document; `get_render_config` lists them). Omitted or "master": the base size.' }),
  maxSide: wholeNumber(MIN_PREVIEW_MAX_SIDE, MAX_DIMENSION)
    .optional()
    .meta({
      description: `Longest side of the preview image in pixels, ${MIN_PREVIEW_MAX_SIDE}-${MAX_DIMENSION}. The design is rendered at its full size and scaled down to fit; never up.`,
      default: DEFAULT_PREVIEW_MAX_SIDE,
    }),
})
/** The input of `render_preview`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a', source: 'draft', maxSide: 512 }`. */
export type PreviewDesignInput = z.input<typeof PreviewDesignInputSchema>

/**
 * A preview: who asks, which design, and how to render it (see {@link PreviewDesignInputSchema}).
 *
 * @example const request: PreviewDesignRequest = { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a', overrides: { 'title.text': 'Hi' } }
 */
export interface PreviewDesignRequest {
  account: BearerAccount
  id: string
  source?: 'draft' | 'published' | undefined
  overrides?: Record<string, unknown> | undefined
  variation?: string | undefined
  /** @default 1024 */
  maxSide?: number | undefined
  /**
   * An unsaved document to render instead of a stored version (a visual editor's live draft):
   * validated like `updateDesign`'s `document` (problems at `document.…`), never stored. The
   * design must still be one of the account's. Not with `source`.
   */
  document?: unknown
  /** Also return every visible component's box (`DesignPreview.layout`). @default false */
  layout?: boolean | undefined
}

/**
 * A preview warning that the renderer has no code for: an image of the design could not be
 * loaded, so the preview leaves it out (a real render of the design fails with `errorCode`).
 *
 * @example const warning: ImageFailedWarning = { code: 'image_failed', key: 'photo', errorCode: 'ERR_IMAGE_FETCH', message: 'photo: … The preview leaves this image out; …' }
 */
export interface ImageFailedWarning {
  code: 'image_failed'
  /** Key of the image component. */
  key: string
  /** The error a render of the design raises for this image. */
  errorCode: 'ERR_IMAGE_FETCH' | 'ERR_IMAGE_INVALID'
  /** One readable sentence: what failed and what to do. */
  message: string
}

/** A warning of a preview: the renderer's warnings, plus images left out, e.g. `{ code: 'text_shrunk', key: 'title', message: '…' }`. */
export type PreviewWarning = RenderWarning | ImageFailedWarning

/**
 * The result of {@link previewDesign}.
 *
 * @example const { bytes, width, height, warnings }: DesignPreview = await previewDesign(services, request)
 */
export interface DesignPreview {
  /** The PNG image. */
  bytes: Uint8Array
  contentType: 'image/png'
  /** Size of the preview in pixels (the long side is at most `maxSide`). */
  width: number
  height: number
  /** Preview pixels per pixel of the rendered size: 1 when not scaled down, e.g. 0.474 for 2160 → 1024. */
  scale: number
  /** The version rendered: `document` for the unsaved document of the request. */
  source: 'draft' | 'published' | 'document'
  /** `master` or the variation id rendered. */
  variation: string
  /** Ignored overrides, shrunk or cut text, missing glyphs, font fallbacks, images left out. */
  warnings: PreviewWarning[]
  /**
   * One line for the reader (the first line of the MCP tool's text): what was rendered and, when
   * overrides were given, how many were applied; when none was, it says so first, e.g.
   * `None of the 2 overrides was applied (title.txt, subtitle.tex: see the warnings): this is the draft as stored.`
   */
  summary: string
  /**
   * With `layout: true`: every visible component's box in pixels of the rendered (full,
   * unscaled) size, where the layout engine put it (auto-layout included); multiply by `scale`
   * for the preview image. Absent when the renderer cannot report it (an embedder's renderer
   * without `renderResolved`).
   */
  layout?: RenderLayout
}

/**
 * Renders one of the account's designs to a PNG whose long side is at most `maxSide` (default
 * 1024): the draft by default when there is one, else the published version, with optional
 * overrides and variation, as a render would. The design is rendered at its full size and scaled
 * down with sharp (the renderer has no size option). Previews by the owner are not metered: they
 * never count against the render quota.
 *
 * An image that cannot be loaded does not fail the preview: the image is left out and an
 * `image_failed` warning says which one and why (a real render of the design fails with that
 * error until it is fixed). Fonts that fail (`ERR_FONT_FETCH`) do fail the preview.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` as `getDesign`; `ERR_INVALID_REQUEST` for a bad input or
 * a `source` the design does not have (path `source`); `ERR_INVALID_OVERRIDE` (paths
 * `overrides.<key>`); `ERR_UNKNOWN_VARIATION` (`details.available` lists the ids); `ERR_FONT_FETCH`,
 * `ERR_RENDER_BUSY`, `ERR_RENDER_FAILED` from the renderer.
 * @example
 * const preview = await previewDesign({ designs, renderer }, { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a', overrides: { 'title.text': 'Hi' } })
 * fs.writeFileSync('preview.png', preview.bytes)
 */
export async function previewDesign(services: Pick<AuthoringServices, 'designs' | 'renderer'> & { assetSource?: AssetSource | undefined }, request: PreviewDesignRequest): Promise<DesignPreview> {
  const input = parseInput(PreviewDesignInputSchema, {
    id: request.id,
    source: request.source,
    overrides: request.overrides,
    variation: request.variation,
    maxSide: request.maxSide,
  })
  if (request.document !== undefined && input.source !== undefined)
    throw invalidRequest([{ path: 'source', message: 'give either "source" (a stored version) or "document" (an unsaved one), not both' }])
  // The unsaved document is checked as update_design checks one, before the store is read: a bad one costs no read.
  if (request.document !== undefined) parseInput(UnsavedDocumentSchema, { document: request.document })
  const unsaved = request.document === undefined ? undefined : validated(request.document, 'document')
  const record = await loadOwnDesign(services, request.account, input.id)
  const source = unsaved ? 'document' : (input.source ?? (isPresent(record.draft) ? 'draft' : 'published'))
  let document = unsaved ?? storedVersion(record, source as 'draft' | 'published')
  const warnings: PreviewWarning[] = []
  let overrideCount = { given: 0, ignored: [] as string[], valid: [] as string[] }
  if (input.overrides !== undefined) {
    const applied = applyPreviewOverrides(document, input.overrides)
    overrideCount = { given: Object.keys(input.overrides).length, ignored: applied.ignored.map((i) => i.key), valid: applied.ignored.length > 0 ? dynamicOverrideKeys(document) : [] }
    document = applied.document
    warnings.push(...applied.ignored.map((i): RenderWarning => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message })))
  }

  const rendered = await renderLeavingOutBrokenImages(services.renderer, document, input.variation, warnings, request.layout === true, { source: services.assetSource, owner: record.ownerId })
  const maxSide = input.maxSide ?? DEFAULT_PREVIEW_MAX_SIDE
  const long = Math.max(rendered.width, rendered.height)
  let { bytes, width, height } = rendered
  if (long > maxSide) {
    const factor = maxSide / long
    width = Math.max(1, Math.min(maxSide, Math.round(rendered.width * factor)))
    height = Math.max(1, Math.min(maxSide, Math.round(rendered.height * factor)))
    const sharp = await loadSharp()
    bytes = await sharp(rendered.bytes).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer()
  }
  return {
    bytes,
    contentType: 'image/png',
    width,
    height,
    scale: width / rendered.width,
    source,
    variation: rendered.variation,
    warnings: [...warnings, ...rendered.warnings],
    summary: previewSummary(source, rendered.variation, width, height, overrideCount),
    ...(rendered.layout ? { layout: rendered.layout } : {}),
  }
}

/** The preview's first line: the override count comes first when none of them was applied. */
function previewSummary(source: DesignPreview['source'], variation: string, width: number, height: number, overrides: { given: number; ignored: string[]; valid: string[] }): string {
  const what = `the ${source === 'document' ? 'unsaved document' : `${source} version`}, variation ${variation}, ${width}x${height} px`
  const { given, ignored, valid } = overrides
  const list = (keys: string[], most: number) => keys.slice(0, most).join(', ') + (keys.length > most ? `, … (${keys.length} in all)` : '')
  const validKeys = valid.length === 0 ? ' The design has no overridable field.' : ` Valid keys: ${list(valid, 20)}.`
  if (given > 0 && ignored.length === given) {
    const none = given === 1 ? 'The 1 override was not applied' : `None of the ${given} overrides was applied`
    return `${none} (${list(ignored, 5)}: see the warnings): this is ${what}, as stored.${validKeys}`
  }
  const applied = given === 0 ? '' : ignored.length === 0 ? ` with ${given === 1 ? 'its override' : `all ${given} overrides`} applied` : ` with ${given - ignored.length} of ${given} overrides applied (ignored: ${list(ignored, 5)})`
  return `Preview of ${what}${applied}.${ignored.length > 0 ? validKeys : ''}`
}

/** The stored version `source` of `record`, validated; a 400 naming `source` when it has none. */
function storedVersion(record: DesignRecord, source: 'draft' | 'published'): DesignDocument {
  const stored = source === 'draft' ? record.draft : record.design
  if (!isPresent(stored))
    throw invalidRequest([
      {
        path: 'source',
        message: source === 'draft' ? `design "${record.id}" has no draft (it is all published); use "published" or omit "source"` : `design "${record.id}" is not published yet; use "draft" or omit "source"`,
      },
    ])
  return validated(stored, source === 'draft' ? 'draft' : 'design')
}

/** Overrides as a render applies them, with invalid values reported as `overrides.<key>`. */
function applyPreviewOverrides(document: DesignDocument, overrides: Record<string, unknown>): ReturnType<typeof applyOverrides> {
  try {
    return applyOverrides(document, overrides)
  } catch (error) {
    if (!LithoError.isInstance(error) || error.code !== 'ERR_INVALID_OVERRIDE') throw error
    const issues = error.issues.map((issue) => ({ ...issue, path: issue.path ? `overrides.${issue.path}` : 'overrides' }))
    throw new LithoError('ERR_INVALID_OVERRIDE', `Invalid override (${issues.length === 1 ? '1 problem' : `${issues.length} problems`}):\n${formatIssues(issues)}`, {
      issues,
      cause: error,
      details: error.details,
    })
  }
}

const IMAGE_ERRORS = new Set(['ERR_IMAGE_FETCH', 'ERR_IMAGE_INVALID'])

/** Renders a PNG; an image the renderer cannot load is left out (with a warning) and the render retried. */
async function renderLeavingOutBrokenImages(
  renderer: RendererPort,
  document: DesignDocument,
  variation: string | undefined,
  warnings: PreviewWarning[],
  layout: boolean,
  assets: { source: AssetSource | undefined; owner: string },
): Promise<RenderResult> {
  let images = 0
  walkComponents(document.components, (c) => {
    if (c.type === 'image') images++
  })
  const skipped = new Set<string>()
  let current = document
  for (;;) {
    try {
      // The document is validated (and overridden) already: resolve the variation, render.
      if (typeof renderer.renderResolved === 'function') return await renderer.renderResolved(await attachAssets(resolveDesign(current, { variation }), assets.source, assets.owner), { format: 'png', quality: DEFAULT_QUALITY, ...(layout ? { layout } : {}) })
      return await renderer.render(current, { format: 'png', ...(variation === undefined ? {} : { variation }) })
    } catch (error) {
      const key = LithoError.isInstance(error) && IMAGE_ERRORS.has(error.code) ? error.details.component : undefined
      if (typeof key !== 'string' || skipped.has(key) || skipped.size >= images) throw error
      const code = (error as LithoError).code as ImageFailedWarning['errorCode']
      const reason = (error as LithoError).message.replace(new RegExp(`^${escapeRegExp(key)}: `), '')
      skipped.add(key)
      warnings.push({
        code: 'image_failed',
        key,
        errorCode: code,
        message: `${key}: the image could not be loaded (${reason}). The preview leaves it out; a real render fails with ${code} until "${key}.src" is a reachable https URL or a data URI of a supported image.`,
      })
      current = withoutImage(current, key)
    }
  }
}

/** The document without the `src` of image `key` (in the base layout and in every variation patch). */
function withoutImage(document: DesignDocument, key: string): DesignDocument {
  const components = mapComponents(document.components, (c) => {
    if (c.key !== key || c.type !== 'image') return c
    const { src: _src, ...rest } = c
    return rest as Component
  })
  const variations = document.variations.map((v) => {
    const patch = v.components?.[key]
    if (!patch || !('src' in patch)) return v
    const { src: _src, ...rest } = patch
    return { ...v, components: { ...v.components, [key]: rest } }
  })
  return { ...document, components, variations }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

