/**
 * The asset resources of the bearer endpoints (docs/assets.md): an asset's metadata and a page
 * of the asset list (the list query is the design list's, `$page` and `$limit`).
 *
 * @module contracts/schemas/assets
 */
import * as z from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageSchema, pageSizeSchema } from './common.js'

/**
 * The query of `GET /assets`: `$page` (≥ 1, default 1) and `$limit` (1-100, default 10), as for designs.
 *
 * @example ListAssetsParamsSchema.parse({ $page: 2, $limit: 20 })
 */
export const ListAssetsParamsSchema = z.object({
  $page: pageSchema.optional().meta({ description: 'Page number, from 1. A page past the last is empty.', default: 1 }),
  $limit: pageSizeSchema.optional().meta({ description: `Assets per page, 1-${MAX_PAGE_SIZE}.`, default: DEFAULT_PAGE_SIZE }),
})

/**
 * An uploaded image's metadata (docs/assets.md).
 *
 * @example AssetResourceSchema.parse({ id: 'a_3Jx9Qm2LpZ7aK4tW', name: 'logo.png', contentType: 'image/png', width: 512, height: 512, bytes: 48213, createdAt: '2026-11-23T10:00:00.000Z', ref: 'asset:a_3Jx9Qm2LpZ7aK4tW' })
 */
export const AssetResourceSchema = z.object({
  id: z.string().meta({ description: 'The asset id, for `/assets/{id}`.' }),
  name: z.string().meta({ description: 'The file name given at upload.' }),
  contentType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml']).meta({ description: 'The type read from the bytes (never the declared one).' }),
  width: z.number().int().meta({ description: 'Pixels (SVG: its intrinsic size).' }),
  height: z.number().int(),
  bytes: z.number().int().meta({ description: "Stored size, counted against the plan's storage." }),
  createdAt: z.string().meta({ format: 'date-time', description: 'When it was uploaded.' }),
  ref: z.string().meta({ description: 'What a design writes in an image `src` (or an override) to draw it: `asset:<id>`.' }),
})
/** An asset's metadata, e.g. `{ id, name, contentType, width, height, bytes, createdAt, ref: 'asset:a_…' }`. */
export type AssetResource = z.infer<typeof AssetResourceSchema>

/**
 * A page of the asset list, shaped like the design list's.
 *
 * @example PaginatedAssetsSchema.parse({ docs: [], page: 1, totalPages: 1, hasNextPage: false, totalDocs: 0, limit: 10 })
 */
export const PaginatedAssetsSchema = z.object({
  docs: z.array(AssetResourceSchema).meta({ description: 'Newest first.' }),
  page: z.number().int().meta({ description: 'This page, from 1.' }),
  totalPages: z.number().int().meta({ description: 'Pages at this `$limit`; at least 1.' }),
  hasNextPage: z.boolean(),
  totalDocs: z.number().int().meta({ description: 'Assets of the account.' }),
  limit: z.number().int().meta({ description: 'The page size used.' }),
})
/** A page of the asset list. */
export type PaginatedAssets = z.infer<typeof PaginatedAssetsSchema>

/**
 * The query of `DELETE /assets/{id}`: `force` deletes an asset even while published designs use it.
 *
 * @example DeleteAssetParamsSchema.parse({ force: true })
 */
export const DeleteAssetParamsSchema = z.object({
  force: z.boolean({ error: 'expected true or false' }).optional().meta({ description: 'Delete even when published designs draw the asset (their renders then fail with `ERR_ASSET_NOT_FOUND`).', default: false }),
})

/**
 * The answer of `DELETE /assets/{id}`.
 *
 * @example DeletedAssetSchema.parse({ deleted: true, id: 'a_3Jx9Qm2LpZ7aK4tW' })
 */
export const DeletedAssetSchema = z.object({ deleted: z.literal(true), id: z.string() })
/** The answer of a delete. */
export type DeletedAsset = z.infer<typeof DeletedAssetSchema>
