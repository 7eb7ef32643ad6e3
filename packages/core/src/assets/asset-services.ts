/**
 * The asset library (docs/assets.md): upload, list, read and delete an account's images. One
 * transport-free function per operation, shared by HTTP (`/assets`), MCP (`upload_asset`,
 * `list_assets`) and the CLI (`litho assets`). Bytes go to the file store under
 * `assets/<owner>/<id>` (private) and count against the plan's `storageBytes`; the records go to
 * the asset store. Another account's asset is "not found", as for designs.
 *
 * @module assets/asset-services
 */
import type { AssetRecord, AssetStore } from '../contracts/asset-store.js'
import type { Clock } from '../contracts/clock.js'
import type { DesignStore } from '../contracts/design-store.js'
import type { FileStore } from '../contracts/file-store.js'
import type { Meter } from '../contracts/meter.js'
import { DeleteAssetParamsSchema, ListAssetsParamsSchema, type AssetResource, type DeletedAsset, type PaginatedAssets } from '../contracts/schemas/assets.js'
import { toLithoIssues } from '../design/validate-design.js'
import { LithoError } from '../errors.js'
import { meterStorage, refundStorage } from '../quota/meter-storage.js'
import type { PlanId, PlanTable } from '../quota/plans.js'
import { STORE_ID } from '../service/bearer-services.js'
import { invalidRequest } from '../service/params.js'
import { newId } from '../service/prepare-render.js'
import { coerceQueryBoolean, DEFAULT_PAGE_SIZE, parseQuery, readParams } from '../service/query.js'
import type { LithoIssue } from '../contracts/errors.js'
import { checkAsset } from './validate-asset.js'

/** The ports the asset operations run over. */
export interface AssetServices {
  assets: AssetStore
  files: FileStore
  /** Counts each asset's bytes against the owner's `storageBytes`. */
  meter: Meter
  /** Published designs are searched for an asset before it is deleted. */
  designs: Pick<DesignStore, 'get' | 'listByOwner'>
  /** @default PLANS */
  plans?: PlanTable
  /** @default the system clock */
  clock?: Clock
}

/** The account an asset operation acts for. */
export interface AssetAccount {
  id: string
  plan: PlanId
}

/** Longest asset name kept (longer names are cut). */
export const MAX_ASSET_NAME_LENGTH = 200
/** Designs read per page while looking for the ones that use an asset. */
const DESIGN_PAGE = 100

/** The file-store key of an asset's bytes. */
export function assetFileKey(owner: string, id: string): string {
  return `assets/${owner}/${id}`
}

/** The API shape of a record. */
export function toAssetResource(record: AssetRecord): AssetResource {
  const { id, name, contentType, width, height, bytes, createdAt } = record
  return { id, name, contentType: contentType as AssetResource['contentType'], width, height, bytes, createdAt, ref: `asset:${id}` }
}

/**
 * Checks and stores an uploaded image: validated (checkAsset), its bytes metered against the
 * plan's storage BEFORE they are stored, then the file and the record written. A failure after
 * metering gives the bytes back and removes what was written.
 *
 * @throws LithoError `ERR_ASSET_TOO_LARGE`, `ERR_ASSET_INVALID`, `ERR_STORAGE_QUOTA`, `ERR_INVALID_REQUEST` (name).
 * @example const asset = await uploadAsset(services, { account: { id: 'u_1', plan: 'free' }, name: 'logo.png', bytes })
 */
export async function uploadAsset(services: AssetServices, request: { account: AssetAccount; name?: string | undefined; bytes: Uint8Array }): Promise<AssetResource> {
  const { account, bytes } = request
  const name = checkName(request.name)
  const checked = await checkAsset(bytes)
  const id = newId('a')
  const key = assetFileKey(account.id, id)
  await meterStorage(services.meter, { account, key, bytes: bytes.byteLength, plans: services.plans })
  const record: AssetRecord = { id, owner: account.id, name, ...checked, bytes: bytes.byteLength, createdAt: (services.clock?.now() ?? new Date()).toISOString() }
  let stored = false
  try {
    await services.files.put(key, bytes, { contentType: checked.contentType, visibility: 'private' })
    stored = true
    await services.assets.put(record)
  } catch (error) {
    if (stored) await services.files.delete(key).catch(() => false)
    await refundStorage(services.meter, { accountId: account.id, key }).catch(() => false)
    throw error
  }
  return toAssetResource(record)
}

/**
 * Validates the query of `GET /assets` (`$page`, `$limit`, as the design list).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `$page` or `$limit`.
 * @example parseListAssetsParams(new URLSearchParams('$page=2')) // { page: 2, limit: 10 }
 */
export function parseListAssetsParams(query: URLSearchParams): { page: number; limit: number } {
  const parsed = parseQuery(query, ListAssetsParamsSchema, ['$page', '$limit'])
  return { page: parsed.$page ?? 1, limit: parsed.$limit ?? DEFAULT_PAGE_SIZE }
}

/**
 * Validates the query of `DELETE /assets/{id}`: `force` (`true`, `false`, `1` or `0`).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `force`.
 * @example parseDeleteAssetParams(new URLSearchParams('force=true')) // { force: true }
 */
export function parseDeleteAssetParams(query: URLSearchParams): { force: boolean } {
  const issues: LithoIssue[] = []
  const raw = readParams(query, ['force'], [], issues)
  coerceQueryBoolean(raw, 'force')
  const parsed = DeleteAssetParamsSchema.safeParse(raw)
  if (!parsed.success) issues.push(...toLithoIssues(parsed.error))
  if (issues.length > 0) throw invalidRequest(issues)
  return { force: parsed.data!.force ?? false }
}

/**
 * A page of the account's assets, newest first, shaped like the design list.
 *
 * @example const { docs } = await listAssets(services, { account, page: 1, limit: 10 })
 */
export async function listAssets(services: Pick<AssetServices, 'assets'>, request: { account: { id: string }; page: number; limit: number }): Promise<PaginatedAssets> {
  const { page, limit } = request
  const checked = ListAssetsParamsSchema.safeParse({ $page: page, $limit: limit })
  if (!checked.success) throw invalidRequest(toLithoIssues(checked.error))
  const { items, total } = await services.assets.listByOwner(request.account.id, { offset: (page - 1) * limit, limit })
  const totalPages = Math.max(1, Math.ceil(total / limit))
  return { docs: items.map(toAssetResource), page, totalPages, hasNextPage: page < totalPages, totalDocs: total, limit }
}

/**
 * One of the account's assets.
 *
 * @throws LithoError `ERR_ASSET_NOT_FOUND` for an unknown id or another account's asset.
 * @example await getAsset(services, { account: { id: 'u_1' }, id: 'a_3Jx9Qm2LpZ7aK4tW' })
 */
export async function getAsset(services: Pick<AssetServices, 'assets'>, request: { account: { id: string }; id: string }): Promise<AssetResource> {
  return toAssetResource(await loadOwnAsset(services, request.account.id, request.id))
}

/**
 * An asset's bytes, as uploaded, with its record.
 *
 * @throws LithoError `ERR_ASSET_NOT_FOUND` as {@link getAsset} (also when its file is gone).
 */
export async function readAssetContent(services: Pick<AssetServices, 'assets' | 'files'>, request: { account: { id: string }; id: string }): Promise<{ asset: AssetResource; bytes: Uint8Array }> {
  const record = await loadOwnAsset(services, request.account.id, request.id)
  const file = await services.files.get(assetFileKey(record.owner, record.id))
  if (file === null) throw assetNotFound(request.id, 'id', `the file of asset "${record.id}" is missing from the file store`)
  return { asset: toAssetResource(record), bytes: file.bytes }
}

/**
 * Deletes an asset and gives its bytes back to the plan's storage. Refused while a published
 * design draws it (its published document names `asset:<id>`), unless `force`.
 *
 * @throws LithoError `ERR_ASSET_NOT_FOUND`; `ERR_ASSET_IN_USE` with `details.designs` ({ id, name }).
 * @example await deleteAsset(services, { account, id: 'a_3Jx9Qm2LpZ7aK4tW', force: false })
 */
export async function deleteAsset(services: AssetServices, request: { account: { id: string }; id: string; force?: boolean | undefined }): Promise<DeletedAsset> {
  const record = await loadOwnAsset(services, request.account.id, request.id)
  if (request.force !== true) {
    const users = await publishedDesignsUsing(services.designs, record.owner, record.id)
    if (users.length > 0) {
      const names = users.map((design) => JSON.stringify(design.name)).join(', ')
      throw new LithoError('ERR_ASSET_IN_USE', `asset "${record.id}" is used by the published design${users.length === 1 ? '' : 's'} ${names}; change ${users.length === 1 ? 'it' : 'them'} first, or delete with force=true`, {
        details: { id: record.id, designs: users },
      })
    }
  }
  if (!(await services.assets.delete(record.id))) throw assetNotFound(record.id)
  const key = assetFileKey(record.owner, record.id)
  await services.files.delete(key)
  await refundStorage(services.meter, { accountId: record.owner, key })
  return { deleted: true, id: record.id }
}

/** The owner's published designs whose document refers to `asset:<id>` (anywhere: components, groups, variations). */
export async function publishedDesignsUsing(designs: Pick<DesignStore, 'get' | 'listByOwner'>, owner: string, id: string): Promise<Array<{ id: string; name: string }>> {
  // A reference is a JSON string value, so it appears quoted and whole: no prefix of another id matches.
  const needle = `"asset:${id}"`
  const found: Array<{ id: string; name: string }> = []
  for (let offset = 0; ; offset += DESIGN_PAGE) {
    const { items, total } = await designs.listByOwner(owner, { offset, limit: DESIGN_PAGE })
    for (const item of items) {
      const record = await designs.get(item.id)
      if (record !== null && record.design !== null && record.design !== undefined && JSON.stringify(record.design).includes(needle)) found.push({ id: record.id, name: record.name })
    }
    if (items.length === 0 || offset + DESIGN_PAGE >= total) return found
  }
}

/** The asset `id` when `owner` owns it; else "not found", whatever the reason (internal). */
export async function loadOwnAsset(services: Pick<AssetServices, 'assets'>, owner: string, id: string): Promise<AssetRecord> {
  const record = typeof id === 'string' && STORE_ID.test(id) ? await services.assets.get(id) : null
  if (record === null || record.owner !== owner) throw assetNotFound(id)
  return record
}

/** The "no such asset" error, never telling whether it exists for another account. */
export function assetNotFound(id: string, field = 'id', message?: string): LithoError {
  const shown = String(id).slice(0, 64)
  return new LithoError('ERR_ASSET_NOT_FOUND', message ?? `${field}: no asset of this account has the id ${JSON.stringify(shown)}`, { details: { id: shown, field } })
}

function checkName(name: unknown): string {
  if (name === undefined || name === null || name === '') return 'asset'
  if (typeof name !== 'string') throw invalidRequest([{ path: 'name', message: `expected a file name (text), received ${typeof name}` }])
  // Control characters would corrupt logs and listings; the name is shown, never used as a path.
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_ASSET_NAME_LENGTH)
  return clean === '' ? 'asset' : clean
}
