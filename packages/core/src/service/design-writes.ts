/**
 * Design writes, transport-free: create a design, change its draft (a whole new document or a
 * patch), publish the draft, delete the design. The MCP server exposes these as tools to AI
 * agents (`create_design`, `update_design`, `publish_design`, `delete_design`) with the input
 * schemas of service/design-inputs; `litho designs import` calls them too.
 *
 * Every failure says what to fix: a LithoError whose `issues` name each problem by the JSON path
 * of the input that caused it (`document.components[2].fontSize`, `patch.components.titel`,
 * `draft.components[0].width` for a patched draft) and what was expected. Validation happens in
 * the operations, not in the schemas, so a caller that skips the schemas gets the same answers.
 *
 * Drafts: changes go to the draft only; the published version (what renders use) changes only when
 * {@link publishDesign} copies the draft over it. Documents are stored as written (validated, not
 * with defaults filled in).
 *
 * A design is only ever visible to its owner: another account's design, an unknown id and an id
 * outside the id alphabet are all `ERR_DESIGN_NOT_FOUND`, so nothing tells a caller whether a
 * design exists.
 *
 * @module service/design-writes
 */
import { randomBytes } from 'node:crypto'
import type { Clock } from '../contracts/clock.js'
import type { DesignRecord, DesignStore } from '../contracts/design-store.js'
import type { Meter } from '../contracts/meter.js'
import { invalidRequest } from '../_internal/messages.js'
import { applyDesignPatch, type DesignPatch } from '../design/patch.js'
import { LithoError } from '../errors.js'
import { createOwned, deleteOwned, type OwnedItems } from '../quota/owned-count.js'
import { PLANS, isPlanName, planOf, type PlanId, type PlanTable } from '../quota/plans.js'
import type { Renderer } from '../render/renderer.js'
import type { BearerAccount } from './bearer-services.js'
import { checkDocument, parseInput, validated } from './check-document.js'
import { CreateDesignInputSchema, DeleteDesignInputSchema, PublishDesignInputSchema, UpdateDesignInputSchema } from './design-inputs.js'
import { isPresent, loadOwnDesign, notFound, toDesignResource as toResource, type DesignResource } from './designs.js'
import { clockOf } from './services.js'

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
  renderer: Pick<Renderer, 'render' | 'renderResolved'>
  /** Counts the designs each account holds, atomically (the plan's `templates`; see `quota/owned-count`). */
  meter: Meter
  /** @default the system clock */
  clock?: Clock
  /** The plan table accounts' plans are read from (the template limit). @default PLANS */
  plans?: PlanTable
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

/**
 * A design creation: who creates it, and `CreateDesignInput`.
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
 * A draft change: who asks, which design, and what changes (see `UpdateDesignInputSchema`).
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
  /**
   * Publish the new document (or patched draft) at once, in the same write, and clear the
   * draft, as `createDesign`'s `publish` (what `litho designs import --id --publish` does; not
   * an input of the `update_design` tool). Ignored when only the name changes.
   * @default false
   */
  publish?: boolean | undefined
}


/**
 * Creates a design for `account` from a name and a whole document, and returns its record (the
 * shape of `getDesign`). The document is stored as written, as the draft (`design: null`) or,
 * with `publish: true`, as the published version (no draft). The id is `d_` + 12 random
 * base64url characters; the render code 22 (128 bits).
 *
 * Plans limit how many designs an account holds (the plan's `templates`: 50 on Free; the table is `services.plans`, `PLANS` by default). The count
 * is kept by the meter and taken atomically before the store write, so concurrent creations
 * never pass the limit (see `quota/owned-count`).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a bad `name` (path `name`) or a `document` that is
 * not an object; `ERR_INVALID_DESIGN` listing every problem of the document, paths prefixed
 * `document.` (e.g. `document.components[1].fontSize`, with the component's key in the message);
 * `ERR_TEMPLATE_LIMIT` when the plan allows no more designs; `ERR_UNKNOWN_PLAN` when the table has no such plan; store errors as they are.
 * @example
 * const design = await createDesign(services, { account: { id: 'u_1', plan: 'free' }, name: 'Card', document: { version: 2, width: 1080, height: 1080, components: [] } })
 * design.draft // the document; design.design === null until published
 */
export async function createDesign(services: Pick<AuthoringServices, 'designs' | 'meter' | 'clock' | 'plans'>, request: CreateDesignRequest): Promise<DesignResource> {
  const { account } = request
  const input = parseInput(CreateDesignInputSchema, { name: request.name, document: request.document, publish: request.publish })
  // The caller's own object, not zod's copy: a copy made by assignment would turn a "__proto__" field into a prototype.
  const document = checkDocument(request.document, 'document')
  if (!isPlanName(account.plan)) throw new TypeError(`account.plan: expected a plan name, received ${JSON.stringify(account.plan)}`)
  const limit = planOf(services.plans ?? PLANS, account.plan).templates
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
 *   `DesignPatchSchema` describes;
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
  return (await updateDesignWithPrevious(services, request)).design
}

/**
 * {@link updateDesign}, also returning the design as it was just before (what the update
 * changed, for `summarizeDesignWrite`), read in the same operation.
 *
 * @throws as {@link updateDesign}
 * @example const { design, previous } = await updateDesignWithPrevious(services, { account, id, patch })
 */
export async function updateDesignWithPrevious(services: Pick<AuthoringServices, 'designs' | 'clock'>, request: UpdateDesignRequest): Promise<{ design: DesignResource; previous: DesignResource }> {
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
  const changed = document !== undefined || input.patch !== undefined
  const content = request.publish === true && changed ? { design: draft, draft: null } : { draft }
  const updated: DesignRecord = { ...record, name: input.name ?? record.name, ...content, updatedAt: clockOf(services).now().toISOString() }
  if (!(await services.designs.update(updated))) throw notFound(record.id)
  return { design: toResource(updated), previous: toResource(record) }
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


/** `d_` and 12 random base64url characters. */
function newDesignId(): string {
  // 96 bits, as the design-store contract asks of ids.
  return `d_${randomBytes(12).toString('base64url')}`
}

/** 22 random base64url characters (128 bits): the unguessable `design_id` of render URLs. */
function newRenderCode(): string {
  return randomBytes(16).toString('base64url')
}
