/**
 * Design authoring, transport-free: create a design, change its draft (a whole new document or
 * a patch), publish the draft, delete the design, and preview it as a PNG. The MCP server exposes
 * these as tools to AI agents (`create_design`, `update_design`, `publish_design`, `delete_design`,
 * `render_preview`), with the input schemas below as the tools' input schemas.
 *
 * Every failure says what to fix: a LithoError whose `issues` name each problem by the JSON path
 * of the input that caused it (`document.components[2].fontSize`, `patch.components.titel`,
 * `draft.components[0].width` for a patched draft) and what was expected. Validation happens in
 * the operations, not in the schemas, so a caller that skips the schemas gets the same answers.
 *
 * Drafts: changes go to the draft only; the published version (what renders use) changes only when
 * {@link publishDesign} copies the draft over it. Documents are stored as written (validated, not
 * with defaults filled in), like `litho designs import`.
 *
 * A design is only ever visible to its owner: another account's design, an unknown id and an id
 * outside the id alphabet are all `ERR_DESIGN_NOT_FOUND`, so nothing tells a caller whether a
 * design exists.
 *
 * @module service/authoring
 */
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import * as z from 'zod'
import type { Clock } from '../contracts/clock.js'
import type { DesignRecord, DesignStore } from '../contracts/design-store.js'
import type { Meter } from '../contracts/meter.js'
import { applyOverrides } from '../design/overrides.js'
import { MAX_DIMENSION, MAX_GROUP_DEPTH, MAX_TOTAL_COMPONENTS, type Component, type DesignDocument } from '../design/schema.js'
import { toLithoIssues, validateDesign } from '../design/validate-design.js'
import { mapComponents, walkComponents } from '../design/walk.js'
import { LithoError, formatIssues, type LithoIssue } from '../errors.js'
import { createOwned, deleteOwned, type OwnedItems } from '../quota/owned-count.js'
import { PLANS, isPlanId, type PlanId } from '../quota/plans.js'
import type { RenderResult } from '../render/render-document.js'
import type { Renderer } from '../render/renderer.js'
import type { RenderWarning } from '../render/types.js'
import { STORE_ID, type BearerAccount } from './bearer-services.js'
import { isPresent, loadOwnDesign, notFound, toDesignResource as toResource, type DesignResource } from './designs.js'
import { invalidRequest } from './params.js'
import { expected, wholeNumber } from './query.js'
import { clockOf } from './services.js'

/** Longest design name, in characters (after trimming). */
export const MAX_DESIGN_NAME_LENGTH = 200
/** Long side of a preview when `maxSide` is absent, in pixels. */
export const DEFAULT_PREVIEW_MAX_SIDE = 1024
/** Smallest `maxSide` of a preview, in pixels. */
export const MIN_PREVIEW_MAX_SIDE = 16

// ---------------------------------------------------------------------------
// Ports and accounts

/**
 * What the authoring operations need: the design store, a renderer for previews (the render pool
 * on a server) and a clock. Each operation asks only for what it uses, e.g.
 * `Pick<AuthoringServices, 'designs' | 'clock'>`.
 *
 * @example
 * const services: AuthoringServices = { designs: memoryDesignStore(), renderer: createRenderPool() }
 */
export interface AuthoringServices {
  designs: Pick<DesignStore, 'get' | 'create' | 'update' | 'delete' | 'listByOwner'>
  renderer: Pick<Renderer, 'render'>
  /** Counts the designs each account holds, atomically (the plan's `templates`; see `quota/owned-count`). */
  meter: Meter
  /** @default the system clock */
  clock?: Clock
}

/** An account's designs for the meter's count: the store's total seeds it. */
function ownedDesigns(services: Pick<AuthoringServices, 'designs'>, owner: string): OwnedItems {
  return { kind: 'designs', owner, countExisting: async () => (await services.designs.listByOwner(owner, { offset: 0, limit: 1 })).total }
}

/**
 * The signed-in account that creates a design: its id (the owner) and its plan (the template limit).
 *
 * @example const account: AuthoringAccount = { id: 'u_3Jx9Qm2L', plan: 'free' }
 */
export interface AuthoringAccount extends BearerAccount {
  plan: PlanId
}

// ---------------------------------------------------------------------------
// Agent-facing input schemas

const CONTROL = /[\u0000-\u001f\u007f]/
const nameWhat = `a design name of 1 to ${MAX_DESIGN_NAME_LENGTH} characters`
const designNameSchema = z
  .string(expected(nameWhat))
  .trim()
  .min(1, expected(nameWhat))
  .max(MAX_DESIGN_NAME_LENGTH, expected(nameWhat))
  .refine((value) => !CONTROL.test(value), expected(`${nameWhat} without control characters`))

const designIdSchema = z
  .string(expected('a design id such as "d_3Jx9Qm2LpZ7a"'))
  .meta({ description: 'The design\'s `_id` (like `d_3Jx9Qm2LpZ7a`), as returned by `create_design`, `list_designs` or `get_design`. Not the `renderCode`.' })

const documentWhat = 'a design document: a JSON object such as { "version": 2, "width": 1080, "height": 1080, "components": [] }'
const documentSchema = z.record(z.string(), z.unknown(), expected(documentWhat))

const keyWhat = 'a component key'
const componentKeySchema = z.string(expected(keyWhat)).min(1, expected(keyWhat))
const positionSchema = wholeNumber(0, MAX_TOTAL_COMPONENTS, `a position from 0 to ${MAX_TOTAL_COMPONENTS}`)

const DOCUMENT_HELP =
  'A Litho design document (version 2), as JSON: `{ "version": 2, "width": 1080, "height": 1080, "background": "#ffffff", "components": [ … ] }`. ' +
  '`width` and `height` are the base size in pixels (1-4096); every position and size inside is in pixels of that base size, with (0, 0) the top-left corner. ' +
  'Components are painted in order (the first is at the bottom); each has a `key` that is unique in the whole document, a `type` (text, image, shape, qrcode, barcode, group), `x`, `y`, `width` and `height`. ' +
  'Call `get_design_guide` for every field of every type, with examples.'

/**
 * The changes of a patch to a draft (`update_design`'s `patch`). Steps apply in this order:
 * 1. `width`, `height`, `background`, `fonts`, `variations` replace the document's field (`null`
 *    removes `background`, `fonts` or `variations`);
 * 2. `components`: `{ <key>: partial component }` is deep-merged into the component with that key,
 *    wherever it is (top level or inside groups): objects merge, arrays and scalars replace, a
 *    `null` field removes that field; `{ <key>: null }` removes the component (and its children);
 * 3. `remove`: component keys to remove;
 * 4. `add`: `{ component, parent?, index? }` inserts a new component, at the top level or into the
 *    group `parent`, at `index` (0 = bottom) or on top;
 * 5. `move`: `{ key, parent?, index? }` moves a component (`parent` omitted: same parent; `null`:
 *    top level) to `index` or on top.
 * Keys of `components` and `remove` name components of the draft before the patch; `add[].parent`
 * and `move` see the result of the earlier steps (so a group added earlier can be a parent).
 *
 * @example
 * DesignPatchSchema.parse({
 *   components: { title: { text: 'Summer sale', stroke: { width: 2 } }, badge: null },
 *   add: [{ component: { key: 'price', type: 'text', x: 40, y: 900, width: 400, height: 80, text: '€19' }, parent: 'card' }],
 * })
 */
export const DesignPatchSchema = z
  .strictObject({
    width: z
      .number(expected('a width in pixels'))
      .optional()
      .meta({ description: 'New base width in pixels (1-4096). Components keep their positions and sizes; variations are unaffected.' }),
    height: z
      .number(expected('a height in pixels'))
      .optional()
      .meta({ description: 'New base height in pixels (1-4096). Components keep their positions and sizes.' }),
    background: z
      .unknown()
      .optional()
      .meta({ description: 'New canvas paint: a CSS colour string such as "#ffffff", or a gradient object `{ "type": "linear", "angle": 180, "stops": [{ "offset": 0, "color": "#000" }, { "offset": 1, "color": "#fff" }] }`. `null` removes it (transparent; white in JPEG).' }),
    fonts: z
      .array(z.unknown(), expected('an array of font faces, or null'))
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list of extra font faces `{ "family", "src" (https URL of a TTF/OTF/WOFF/WOFF2), "weight", "style" }`. `null` removes them all.' }),
    variations: z
      .array(z.unknown(), expected('an array of variations, or null'))
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list of extra sizes `{ "id", "name", "width", "height", "components"?: { <key>: { field: value } } }`. `null` removes them all.' }),
    components: z
      .record(z.string(), z.record(z.string(), z.unknown(), expected('a partial component (an object of fields), or null to remove it')).nullable(), expected('an object of changes by component key'))
      .optional()
      .meta({
        description:
          'Changes to existing components, by `key`; components inside groups are found by their own key too. ' +
          'The value is a partial component deep-merged into it: nested objects merge (`{ "stroke": { "width": 2 } }` keeps the stroke colour), arrays and plain values replace, and a field set to `null` is removed (back to its default). ' +
          'A value of `null` instead of an object removes the whole component (a group with its children). ' +
          'Example: `{ "title": { "text": "Summer sale", "fontSize": 72 }, "old-badge": null }`. The keys are those of the draft (see `get_design`; `get_render_config`\'s `data.flatten` lists the overridable `key.field` pairs).',
      }),
    add: z
      .array(
        z
          .strictObject({
            component: documentSchema.meta({
              description: 'The new component, exactly as in a document: a `key` not used anywhere in the document, a `type`, `x`, `y`, `width`, `height` and the type\'s fields (see `get_design_guide`).',
            }),
            parent: componentKeySchema
              .optional()
              .meta({ description: 'The key of a group to put the component in; its `x` and `y` are then relative to the group. Omitted: the top level of the canvas.' }),
            index: positionSchema
              .optional()
              .meta({ description: 'Position in the parent\'s list: 0 is the bottom (painted first). Omitted, or past the end: on top of the others.' }),
          })
          .meta({ description: 'One component to add.' }),
        expected('an array of { component, parent?, index? }'),
      )
      .optional()
      .meta({ description: 'New components, inserted in list order (a group added earlier in the list can be the `parent` of a later one).' }),
    remove: z
      .array(componentKeySchema, expected('an array of component keys'))
      .optional()
      .meta({ description: 'Keys of components to remove, wherever they are; removing a group removes its children.' }),
    move: z
      .array(
        z
          .strictObject({
            key: componentKeySchema.meta({ description: 'The key of the component to move.' }),
            parent: componentKeySchema
              .nullable()
              .optional()
              .meta({ description: 'The key of the group to move it into (positions become relative to that group); `null`: the top level; omitted: it stays in its current parent (to change the stacking order only).' }),
            index: positionSchema
              .optional()
              .meta({ description: 'New position in the target list, counted without the moved component: 0 is the bottom. Omitted, or past the end: on top.' }),
          })
          .meta({ description: 'One component to move.' }),
        expected('an array of { key, parent?, index? }'),
      )
      .optional()
      .meta({ description: 'Components to move to another group or another place in the stacking order, applied after `add`.' }),
  })
  .meta({
    description:
      'Changes to the draft, applied in this order: (1) `width`, `height`, `background`, `fonts`, `variations` replace those document fields; ' +
      '(2) `components` merges changes into components by key, or removes one with `null`; (3) `remove` removes components by key; ' +
      '(4) `add` inserts new components; (5) `move` moves components. ' +
      'Keys in `components` and `remove` must exist in the draft; an unknown key is an error that lists the existing keys. ' +
      'The patched draft must be a valid document; if not, nothing changes and each problem is reported with its path in the draft (`draft.components[2].fontSize`).',
  })
/** A patch to a draft, e.g. `{ components: { title: { text: 'Hi' } }, remove: ['badge'] }`. See {@link DesignPatchSchema}. */
export type DesignPatch = z.input<typeof DesignPatchSchema>

/**
 * The agent-facing input of {@link createDesign} (the `create_design` tool).
 *
 * @example CreateDesignInputSchema.parse({ name: 'Product card', document: { version: 2, width: 1080, height: 1080, components: [] } })
 */
export const CreateDesignInputSchema = z.object({
  name: designNameSchema.meta({ description: `A name for the design, shown in design lists: 1-${MAX_DESIGN_NAME_LENGTH} characters.` }),
  document: documentSchema.meta({
    description: `${DOCUMENT_HELP} If it is invalid, nothing is stored and every problem is listed with its path (e.g. \`document.components[1].fontSize\`).`,
  }),
  publish: z
    .boolean(expected('true or false'))
    .optional()
    .meta({
      description:
        'false (default): the document is stored as the draft, to check with `render_preview`, refine with `update_design` and publish with `publish_design`; the render URL works only once it is published. true: published at once, so renders use it right away.',
      default: false,
    }),
})
/** The input of `create_design`, e.g. `{ name: 'Card', document: { version: 2, … }, publish: false }`. */
export type CreateDesignInput = z.input<typeof CreateDesignInputSchema>

/**
 * The agent-facing input of {@link updateDesign} (the `update_design` tool).
 *
 * @example UpdateDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a', patch: { components: { title: { text: 'Hi' } } } })
 */
export const UpdateDesignInputSchema = z.object({
  id: designIdSchema,
  name: designNameSchema
    .optional()
    .meta({ description: `A new name (1-${MAX_DESIGN_NAME_LENGTH} characters). It takes effect at once: the name belongs to the design, not to the draft.` }),
  document: documentSchema.optional().meta({
    description: `A whole new document that replaces the draft. ${DOCUMENT_HELP} Give either \`document\` or \`patch\`, not both; problems are reported with their path (\`document.…\`).`,
  }),
  patch: DesignPatchSchema.optional(),
})
/** The input of `update_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a', patch: { remove: ['badge'] } }`. */
export type UpdateDesignInput = z.input<typeof UpdateDesignInputSchema>

/**
 * The agent-facing input of {@link publishDesign} (the `publish_design` tool).
 *
 * @example PublishDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a' })
 */
export const PublishDesignInputSchema = z.object({ id: designIdSchema })
/** The input of `publish_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a' }`. */
export type PublishDesignInput = z.input<typeof PublishDesignInputSchema>

/**
 * The agent-facing input of {@link deleteDesign} (the `delete_design` tool).
 *
 * @example DeleteDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a' })
 */
export const DeleteDesignInputSchema = z.object({ id: designIdSchema })
/** The input of `delete_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a' }`. */
export type DeleteDesignInput = z.input<typeof DeleteDesignInputSchema>

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

// ---------------------------------------------------------------------------
// Requests and results

/**
 * A design creation: who creates it, and {@link CreateDesignInput}.
 *
 * @example const request: CreateDesignRequest = { account: { id: 'u_1', plan: 'free' }, name: 'Card', document }
 */
export interface CreateDesignRequest {
  account: AuthoringAccount
  name: string
  /** A DesignDocument (validated here). */
  document: unknown
  /** @default false (stored as the draft) */
  publish?: boolean | undefined
}

/**
 * A draft change: who asks, which design, and what changes (see {@link UpdateDesignInputSchema}).
 *
 * @example const request: UpdateDesignRequest = { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a', patch: { remove: ['badge'] } }
 */
export interface UpdateDesignRequest {
  account: BearerAccount
  id: string
  name?: string | undefined
  /** A whole new draft (validated here). */
  document?: unknown
  patch?: DesignPatch | undefined
}

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
  /** The version rendered. */
  source: 'draft' | 'published'
  /** `master` or the variation id rendered. */
  variation: string
  /** Ignored overrides, shrunk or cut text, missing glyphs, font fallbacks, images left out. */
  warnings: PreviewWarning[]
}

// ---------------------------------------------------------------------------
// Operations

/**
 * Creates a design for `account` from a name and a whole document, and returns its record (the
 * shape of `getDesign`). The document is stored as written, as the draft (`design: null`) or,
 * with `publish: true`, as the published version (no draft). The id is `d_` + 12 random
 * base64url characters; the render code 22 (128 bits).
 *
 * Plans limit how many designs an account holds (`PLANS[plan].templates`: 50 on Free). The count
 * is kept by the meter and taken atomically before the store write, so concurrent creations
 * never pass the limit (see `quota/owned-count`).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a bad `name` (path `name`) or a `document` that is
 * not an object; `ERR_INVALID_DESIGN` listing every problem of the document, paths prefixed
 * `document.` (e.g. `document.components[1].fontSize`, with the component's key in the message);
 * `ERR_TEMPLATE_LIMIT` when the plan allows no more designs; store errors as they are.
 * @example
 * const design = await createDesign(services, { account: { id: 'u_1', plan: 'free' }, name: 'Card', document: { version: 2, width: 1080, height: 1080, components: [] } })
 * design.draft // the document; design.design === null until published
 */
export async function createDesign(services: Pick<AuthoringServices, 'designs' | 'meter' | 'clock'>, request: CreateDesignRequest): Promise<DesignResource> {
  const { account } = request
  const input = parseInput(CreateDesignInputSchema, { name: request.name, document: request.document, publish: request.publish })
  // The caller's own object, not zod's copy: a copy made by assignment would turn a "__proto__" field into a prototype.
  const document = checkDocument(request.document, 'document')
  if (!isPlanId(account.plan)) throw new TypeError(`account.plan: expected one of ${Object.keys(PLANS).join(', ')}, received ${JSON.stringify(account.plan)}`)
  const now = clockOf(services).now().toISOString()
  const publish = input.publish === true
  const record: DesignRecord = {
    id: newDesignId(),
    ownerId: account.id,
    name: input.name,
    renderCode: newRenderCode(),
    design: publish ? document : null,
    draft: publish ? null : document,
    createdAt: now,
    updatedAt: now,
  }
  const limit = PLANS[account.plan].templates
  // Counted atomically by the meter (quota/owned-count): the unit is taken before the store write.
  const outcome = await createOwned(services.meter, ownedDesigns(services, account.id), { id: record.id, limit }, async () => {
    try {
      await services.designs.create(record)
    } catch (error) {
      // Ids are random; a clash is astronomically rare, and a fresh render code settles it
      // (the id stays: the meter's unit is held under it).
      if (!(LithoError.isInstance(error) && error.code === 'ERR_STORE_CONFLICT')) throw error
      record.renderCode = newRenderCode()
      await services.designs.create(record)
    }
  })
  if (!outcome.created)
    throw new LithoError(
      'ERR_TEMPLATE_LIMIT',
      `The ${account.plan} plan allows ${limit} designs and this account has ${outcome.count}: delete a design you no longer need (delete_design), or change an existing one (update_design), or move to a larger plan.`,
      { details: { plan: account.plan, limit, count: outcome.count } },
    )
  return toResource(record)
}

/**
 * Changes a design's draft and/or its name, and returns the record. The published version is
 * untouched (renders keep using it) until {@link publishDesign}.
 *
 * - `document` replaces the draft with a whole new document;
 * - `patch` changes the draft (or, when there is none, a copy of the published document) as
 *   {@link DesignPatchSchema} describes;
 * - `name` renames the design at once (the name is not part of the draft).
 *
 * Give `document` or `patch` (not both), or neither when only the name changes. Nothing is
 * stored unless the result is valid. Concurrent updates of one design: the last write wins.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` as `getDesign`; `ERR_INVALID_REQUEST` for a bad input
 * (both or none of the changes, a bad `name`, a malformed patch) or a patch naming a component key
 * that does not exist (path e.g. `patch.components.titel`, the message listing the existing keys,
 * `details.available` too); `ERR_INVALID_DESIGN` listing every problem of the result, paths
 * prefixed `document.` (a replacement) or `draft.` (a patched draft).
 * @example
 * await updateDesign(services, { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a', patch: { components: { title: { text: 'Summer sale' } } } })
 */
export async function updateDesign(services: Pick<AuthoringServices, 'designs' | 'clock'>, request: UpdateDesignRequest): Promise<DesignResource> {
  const input = parseInput(UpdateDesignInputSchema, { id: request.id, name: request.name, document: request.document, patch: request.patch })
  if (input.document !== undefined && input.patch !== undefined)
    throw invalidRequest([{ path: 'patch', message: 'give either "document" (a whole new draft) or "patch" (changes to the draft), not both' }])
  if (input.document === undefined && input.patch === undefined && input.name === undefined)
    throw invalidRequest([{ path: '', message: 'nothing to change: give "name", "document" (a whole new draft) or "patch" (changes to the draft)' }])
  const document = input.document === undefined ? undefined : checkDocument(request.document, 'document')
  const record = await loadOwnDesign(services, request.account, input.id)
  let draft: unknown = isPresent(record.draft) ? record.draft : null
  if (document !== undefined) draft = document
  else if (input.patch !== undefined) {
    const base = isPresent(record.draft) ? record.draft : record.design
    if (!isPresent(base)) throw notFound(record.id, `design "${record.id}" has neither a draft nor a published version to patch; send a whole "document"`)
    draft = checkDocument(applyDesignPatch(base, request.patch as DesignPatch), 'draft')
  }
  const updated: DesignRecord = { ...record, name: input.name ?? record.name, draft, updatedAt: clockOf(services).now().toISOString() }
  if (!(await services.designs.update(updated))) throw notFound(record.id)
  return toResource(updated)
}

/**
 * Publishes a design's draft: it becomes the published version (what `{render_url}/v1/{renderCode}`
 * renders) and the draft is cleared. A design without a draft is returned unchanged (publishing
 * twice is harmless).
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` as `getDesign` (and for a design with neither a draft
 * nor a published version, which the operations here never leave); `ERR_INVALID_DESIGN` (paths
 * `draft.…`) if the stored draft is broken.
 * @example const published = await publishDesign(services, { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a' }) // published.draft === undefined
 */
export async function publishDesign(services: Pick<AuthoringServices, 'designs' | 'clock'>, request: { account: BearerAccount; id: string }): Promise<DesignResource> {
  const input = parseInput(PublishDesignInputSchema, { id: request.id })
  const record = await loadOwnDesign(services, request.account, input.id)
  if (!isPresent(record.draft)) {
    if (isPresent(record.design)) return toResource(record)
    throw notFound(record.id, `design "${record.id}" has neither a draft nor a published version`)
  }
  validated(record.draft, 'draft')
  const updated: DesignRecord = { ...record, design: record.draft, draft: null, updatedAt: clockOf(services).now().toISOString() }
  if (!(await services.designs.update(updated))) throw notFound(record.id)
  return toResource(updated)
}

/**
 * Deletes a design, published version and draft: its render URL stops working at once.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` for an unknown or already deleted design, an id outside
 * `[A-Za-z0-9_-]{1,64}`, or another account's design (never telling which).
 * @example await deleteDesign(services, { account: { id: 'u_1' }, id: 'd_3Jx9Qm2LpZ7a' }) // { success: true, _id: 'd_3Jx9Qm2LpZ7a' }
 */
export async function deleteDesign(services: Pick<AuthoringServices, 'designs' | 'meter'>, request: { account: BearerAccount; id: string }): Promise<{ success: true; _id: string }> {
  const input = parseInput(DeleteDesignInputSchema, { id: request.id })
  const record = await loadOwnDesign(services, request.account, input.id)
  if (!(await deleteOwned(services.meter, ownedDesigns(services, request.account.id), record.id, () => services.designs.delete(record.id)))) throw notFound(record.id)
  return { success: true, _id: record.id }
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
export async function previewDesign(services: Pick<AuthoringServices, 'designs' | 'renderer'>, request: PreviewDesignRequest): Promise<DesignPreview> {
  const input = parseInput(PreviewDesignInputSchema, {
    id: request.id,
    source: request.source,
    overrides: request.overrides,
    variation: request.variation,
    maxSide: request.maxSide,
  })
  const record = await loadOwnDesign(services, request.account, input.id)
  const source = input.source ?? (isPresent(record.draft) ? 'draft' : 'published')
  const stored = source === 'draft' ? record.draft : record.design
  if (!isPresent(stored))
    throw invalidRequest([
      {
        path: 'source',
        message: source === 'draft' ? `design "${record.id}" has no draft (it is all published); use "published" or omit "source"` : `design "${record.id}" is not published yet; use "draft" or omit "source"`,
      },
    ])
  let document = validated(stored, source === 'draft' ? 'draft' : 'design')
  const warnings: PreviewWarning[] = []
  if (input.overrides !== undefined) {
    const applied = applyPreviewOverrides(document, input.overrides)
    document = applied.document
    warnings.push(...applied.ignored.map((i): RenderWarning => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message })))
  }

  const rendered = await renderLeavingOutBrokenImages(services.renderer, document, input.variation, warnings)
  const maxSide = input.maxSide ?? DEFAULT_PREVIEW_MAX_SIDE
  const long = Math.max(rendered.width, rendered.height)
  let { bytes, width, height } = rendered
  if (long > maxSide) {
    const factor = maxSide / long
    width = Math.max(1, Math.min(maxSide, Math.round(rendered.width * factor)))
    height = Math.max(1, Math.min(maxSide, Math.round(rendered.height * factor)))
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
  }
}

// ---------------------------------------------------------------------------
// Patches

type Json = Record<string, unknown>

/** Where a component sits in a raw document: its object and the list that holds it. */
interface Slot {
  component: Json
  list: unknown[]
}

/** Top-level document fields a patch replaces. */
const DOCUMENT_FIELDS = ['width', 'height', 'background', 'fonts', 'variations'] as const
const PATCH_FIELDS = [...DOCUMENT_FIELDS, 'components', 'add', 'remove', 'move'] as const
/** Deepest nesting of a merged value (components nest objects a few levels at most). */
const MAX_MERGE_DEPTH = 32

/**
 * Applies a patch (see {@link DesignPatchSchema}) to a document and returns the patched copy; the
 * input is never changed. The result is **not** validated: pass it to `validateDesign` (as
 * {@link updateDesign} does).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a malformed patch (paths `patch.…`) and for component
 * keys that name nothing (e.g. `patch.components.titel: no component has the key "titel" (did you
 * mean "title"?); existing keys: title, photo, card, price`), with `details.available` listing the
 * existing keys.
 * @example applyDesignPatch(draft, { components: { title: { text: 'Hi' } }, remove: ['badge'] })
 */
export function applyDesignPatch(document: unknown, patch: DesignPatch): Json {
  const reserved = findProtoKey(patch, 'patch')
  if (reserved) throw invalidRequest([{ path: reserved, message: 'expected a field name or component key, received the reserved name "__proto__"' }])
  const parsed = DesignPatchSchema.safeParse(patch, { reportInput: true })
  if (!parsed.success) throw invalidRequest(toLithoIssues(parsed.error, 'patch'))
  const changes = parsed.data
  if (!PATCH_FIELDS.some((field) => changes[field] !== undefined))
    throw invalidRequest([{ path: 'patch', message: `expected at least one change (${PATCH_FIELDS.join(', ')}), received an empty patch` }])

  const doc: Json = isPlainObject(document) ? structuredClone(document) : {}
  if (!Array.isArray(doc.components)) doc.components = []
  const root = doc.components as unknown[]
  const issues: LithoIssue[] = []

  // 1. Top-level fields.
  for (const field of DOCUMENT_FIELDS) {
    const value = changes[field]
    if (value === undefined) continue
    if (value === null) delete doc[field]
    else doc[field] = structuredClone(value)
  }

  // 2. Changes by key, and 3. removals, both against the draft as it was.
  const before = indexTree(root)
  const existing = [...before.keys()]
  let unknownKeys = false
  const unknown = (path: string, key: string, keys: readonly string[], what = 'component'): LithoIssue => {
    unknownKeys = true
    return { path, message: `no ${what} has the key ${JSON.stringify(key)}${suggest(key, keys)}; ${listKeys(keys, what)}` }
  }
  for (const [key, value] of Object.entries(changes.components ?? {})) {
    const path = `patch.components${pathKey(key)}`
    const slot = before.get(key)
    if (!slot) issues.push(unknown(path, key, existing))
    else if (value === null) detach(slot)
    else {
      const problem = checkMergeValue(value, path)
      if (problem) issues.push(problem)
      else mergeInto(slot.component, value)
    }
  }
  changes.remove?.forEach((key, i) => {
    const slot = before.get(key)
    if (slot) detach(slot)
    else issues.push(unknown(`patch.remove[${i}]`, key, existing))
  })

  // 4. Additions, then 5. moves, each seeing the steps before it.
  const current = indexTree(root)
  const groupList = (path: string, key: string, moving?: Json): unknown[] | undefined => {
    const slot = current.get(key)
    const groups = [...current.values()].filter((s) => s.component.type === 'group').map((s) => s.component.key as string)
    if (!slot) {
      issues.push(groups.length > 0 ? unknown(path, key, groups, 'group') : { path, message: `no group has the key ${JSON.stringify(key)}; the design has no groups (omit "parent" for the top level)` })
      return undefined
    }
    if (slot.component.type !== 'group') {
      issues.push({ path, message: `expected the key of a group, received ${JSON.stringify(key)} (a ${String(slot.component.type)} component); ${listKeys(groups, 'group')}` })
      return undefined
    }
    if (moving && contains(moving, slot.component)) {
      issues.push({ path, message: `cannot move ${JSON.stringify(moving.key)} into ${key === moving.key ? 'itself' : `its own descendant ${JSON.stringify(key)}`}` })
      return undefined
    }
    if (!Array.isArray(slot.component.children)) slot.component.children = []
    return slot.component.children as unknown[]
  }
  changes.add?.forEach((item, i) => {
    const list = item.parent === undefined ? root : groupList(`patch.add[${i}].parent`, item.parent)
    if (!list) return
    const component = structuredClone(item.component)
    insertAt(list, component, item.index)
    // The new component (and its children) can be a parent or be moved later; a duplicate key stays the first one's (validation reports it).
    for (const [key, slot] of indexTree([component])) if (!current.has(key)) current.set(key, slot.component === component ? { component, list } : slot)
  })
  changes.move?.forEach((item, i) => {
    const slot = current.get(item.key)
    if (!slot) {
      issues.push(unknown(`patch.move[${i}].key`, item.key, [...current.keys()]))
      return
    }
    const target = item.parent === undefined ? slot.list : item.parent === null ? root : groupList(`patch.move[${i}].parent`, item.parent, slot.component)
    if (!target) return
    detach(slot)
    insertAt(target, slot.component, item.index)
    current.set(item.key, { component: slot.component, list: target })
  })

  if (issues.length > 0) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
    throw new LithoError('ERR_INVALID_REQUEST', `Invalid patch (${count}):\n${formatIssues(issues)}`, { issues, details: unknownKeys ? { available: existing } : {} })
  }
  return doc
}

/** Every component of a raw tree by key (the first of a duplicate wins), without recursion. */
function indexTree(components: unknown[]): Map<string, Slot> {
  const byKey = new Map<string, Slot>()
  const stack: unknown[][] = [components]
  while (stack.length > 0) {
    const list = stack.pop()!
    for (const item of list) {
      if (!isPlainObject(item)) continue
      if (typeof item.key === 'string' && !byKey.has(item.key)) byKey.set(item.key, { component: item, list })
      if (Array.isArray(item.children)) stack.push(item.children)
    }
  }
  return byKey
}

/** True when `node` is `root` or inside its children, at any depth. */
function contains(root: Json, node: Json): boolean {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === node) return true
    if (isPlainObject(item) && Array.isArray(item.children)) stack.push(...item.children)
  }
  return false
}

function detach(slot: Slot): void {
  const at = slot.list.indexOf(slot.component)
  if (at >= 0) slot.list.splice(at, 1)
}

function insertAt(list: unknown[], component: unknown, index: number | undefined): void {
  list.splice(index === undefined ? list.length : Math.min(index, list.length), 0, component)
}

/** Deep merge: objects merge, arrays and scalars replace, `null` removes the field. */
function mergeInto(target: Json, changes: Json): void {
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if (value === null) delete target[field]
    else if (isPlainObject(value)) {
      const next = isPlainObject(target[field]) ? (target[field] as Json) : {}
      mergeInto(next, value)
      target[field] = next
    } else target[field] = structuredClone(value)
  }
}

/** A merged value must not nest without end: the merge recurses (iterative check). */
function checkMergeValue(value: Json, base: string): LithoIssue | undefined {
  const stack: Array<{ value: Json; path: string; depth: number }> = [{ value, path: base, depth: 0 }]
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!
    if (depth > MAX_MERGE_DEPTH) return { path, message: `expected objects nested at most ${MAX_MERGE_DEPTH} deep, received deeper` }
    for (const [field, child] of Object.entries(node)) if (isPlainObject(child)) stack.push({ value: child, path: `${path}${pathKey(field)}`, depth: depth + 1 })
  }
  return undefined
}

/**
 * The path of an own `__proto__` key anywhere in `value` (JSON.parse makes one from `"__proto__"`):
 * copied by assignment, as zod and merges do, it would replace a prototype instead of setting a field.
 */
function findProtoKey(value: unknown, base: string): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: base }]
  let budget = 100_000
  while (stack.length > 0 && budget-- > 0) {
    const { value: node, path } = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (Object.hasOwn(node, '__proto__')) return `${path}.__proto__`
    if (Array.isArray(node)) node.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }))
    else for (const [field, child] of Object.entries(node)) stack.push({ value: child, path: `${path}${pathKey(field)}` })
  }
  return undefined
}

/** `.title`, or `["odd key"]` for keys that are not plain words. */
function pathKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}

function listKeys(keys: readonly string[], what: string): string {
  if (keys.length === 0) return `the design has no ${what}s yet`
  const shown = keys.slice(0, 100).join(', ')
  return `existing ${what} keys: ${shown}${keys.length > 100 ? `, … (${keys.length - 100} more)` : ''}`
}

/** ` (did you mean "title"?)` for a near miss, else nothing. */
function suggest(key: string, keys: readonly string[]): string {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of keys) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.min(key.length, best.length) / 3)) ? ` (did you mean ${JSON.stringify(best)}?)` : ''
}

/** Edits (insert, delete, substitute, swap two neighbours) between two short strings. */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1)
    }
  return d[a.length]![b.length]!
}

// ---------------------------------------------------------------------------
// Validation with agent-friendly paths

/** Validates an input with an agent-facing schema. */
function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input, { reportInput: true })
  if (!result.success) throw invalidRequest(toLithoIssues(result.error))
  return result.data
}

/**
 * Validates a raw document and returns a copy of it as written; problems come back with `prefix`
 * on their paths and the key of the component they are in.
 */
function checkDocument(document: unknown, prefix: 'document' | 'draft'): Json {
  validated(document, prefix)
  return structuredClone(document) as Json
}

/** `validateDesign`, its issues rethrown with `prefix` on their paths and the key of their component. */
function validated(document: unknown, prefix: string): DesignDocument {
  try {
    return validateDesign(document)
  } catch (error) {
    if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_DESIGN') throw prefixDesignError(error, document, prefix)
    throw error
  }
}

function prefixDesignError(error: LithoError, document: unknown, prefix: string): LithoError {
  const owners = componentPaths(document)
  const issues = error.issues.map((issue) => {
    const key = ownerOf(issue.path, owners)
    return {
      path: issue.path ? (issue.path.startsWith('[') ? `${prefix}${issue.path}` : `${prefix}.${issue.path}`) : prefix,
      message: key === undefined ? issue.message : `${issue.message} (component "${key}")`,
    }
  })
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
  return new LithoError('ERR_INVALID_DESIGN', `Invalid design document in "${prefix}" (${count}):\n${formatIssues(issues)}`, { issues, cause: error, details: error.details })
}

/** JSON paths of the raw document's components (`components[2].children[0]`) and their keys. */
function componentPaths(document: unknown): Map<string, string> {
  const paths = new Map<string, string>()
  const root = isPlainObject(document) ? document.components : undefined
  const stack: Array<{ list: unknown; path: string; depth: number }> = [{ list: root, path: 'components', depth: 0 }]
  while (stack.length > 0 && paths.size <= MAX_TOTAL_COMPONENTS) {
    const { list, path, depth } = stack.pop()!
    if (!Array.isArray(list) || depth > MAX_GROUP_DEPTH + 1) continue
    list.forEach((item, index) => {
      if (!isPlainObject(item)) return
      const at = `${path}[${index}]`
      if (typeof item.key === 'string' && item.key !== '') paths.set(at, item.key)
      stack.push({ list: item.children, path: `${at}.children`, depth: depth + 1 })
    })
  }
  return paths
}

/** The key of the innermost component whose path starts `path`. */
function ownerOf(path: string, owners: ReadonlyMap<string, string>): string | undefined {
  let end = path.length
  while (end > 0) {
    const candidate = path.slice(0, end)
    const key = owners.get(candidate)
    if (key !== undefined) return key
    end = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['))
  }
  return undefined
}

// ---------------------------------------------------------------------------
// Preview helpers

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
  renderer: Pick<Renderer, 'render'>,
  document: DesignDocument,
  variation: string | undefined,
  warnings: PreviewWarning[],
): Promise<RenderResult> {
  let images = 0
  walkComponents(document.components, (c) => {
    if (c.type === 'image') images++
  })
  const skipped = new Set<string>()
  let current = document
  for (;;) {
    try {
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

// ---------------------------------------------------------------------------
// Records

/** The design `id` when `account` owns it; otherwise "not found", whatever the reason. */

/** `d_` and 12 random base64url characters. */
function newDesignId(): string {
  // 96 bits, as the design-store contract asks of ids.
  return `d_${randomBytes(12).toString('base64url')}`
}

/** 22 random base64url characters (128 bits): the unguessable `design_id` of render URLs. */
function newRenderCode(): string {
  return randomBytes(16).toString('base64url')
}

function isPlainObject(value: unknown): value is Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

