/**
 * The design resources of the bearer endpoints (docs/http-reference.md): the list query, a list
 * item and page, a design record and a design's render configuration.
 *
 * @module contracts/schemas/designs
 */
import * as z from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageSchema, pageSizeSchema } from './common.js'

export { MAX_PAGE } from './common.js'

/**
 * The query of `GET /designs/v2`: `$page` (≥ 1, default 1) and `$limit` (1-100, default 10).
 *
 * @example ListDesignsParamsSchema.parse({ $page: 2, $limit: 20 })
 */
export const ListDesignsParamsSchema = z.object({
  $page: pageSchema.optional().meta({ description: 'Page number, from 1. A page past the last is empty.', default: 1 }),
  $limit: pageSizeSchema.optional().meta({ description: `Designs per page, 1-${MAX_PAGE_SIZE}.`, default: DEFAULT_PAGE_SIZE }),
})

const dateTime = (description: string) => z.string().meta({ format: 'date-time', description })

/**
 * An item of the design list (docs/http-reference.md, DesignSummary).
 *
 * @example DesignListItemSchema.parse({ _id: 'd_7Hq2', name: 'Card', updatedAt: '2026-11-23T10:00:00.000Z' })
 */
export const DesignListItemSchema = z.object({
  _id: z.string().meta({ description: 'Internal id, for `/designs/v2/{id}`.' }),
  name: z.string(),
  updatedAt: dateTime('When the design was last changed.'),
})
/** An item of the design list, e.g. `{ _id: 'd_7Hq2', name: 'Card', updatedAt: '2026-11-23T10:00:00.000Z' }`. */
export type DesignListItem = z.infer<typeof DesignListItemSchema>

/**
 * A page of the design list (docs/http-reference.md, PaginatedDesigns).
 *
 * @example PaginatedDesignsSchema.parse({ docs: [], page: 1, totalPages: 1, hasNextPage: false, totalDocs: 0, limit: 10 })
 */
export const PaginatedDesignsSchema = z.object({
  docs: z.array(DesignListItemSchema).meta({ description: 'Most recently updated first.' }),
  page: z.number().int().meta({ description: 'This page, from 1.' }),
  totalPages: z.number().int().meta({ description: 'Pages at this `$limit`; at least 1 (with no designs, page 1 is empty).' }),
  hasNextPage: z.boolean(),
  totalDocs: z.number().int().meta({ description: 'Designs of the account.' }),
  limit: z.number().int().meta({ description: 'The page size used.' }),
})
/** A page of the design list, e.g. `{ docs: [...], page: 1, totalPages: 3, hasNextPage: true, totalDocs: 25, limit: 10 }`. */
export type PaginatedDesigns = z.infer<typeof PaginatedDesignsSchema>

/**
 * A design record (docs/http-reference.md; same shape as MCP `get_design`).
 *
 * @example DesignResourceSchema.parse({ _id: 'd_7Hq2', name: 'Card', renderCode: 'k3Jx9…', createdAt: '…', updatedAt: '…', design: { version: 2 } })
 */
export const DesignResourceSchema = z.object({
  _id: z.string().meta({ description: 'Internal id, for `/designs/v2/{id}`.' }),
  name: z.string(),
  renderCode: z.string().meta({ description: 'The `design_id` of `{render_url}/v1/{design_id}`; unguessable.' }),
  createdAt: dateTime('When the design was created.'),
  updatedAt: dateTime('When the design was last changed.'),
  design: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The published v2 component document (DesignDocument), or null while there is only a draft.' }),
  draft: z.record(z.string(), z.unknown()).optional().meta({ description: 'The unpublished draft (DesignDocument); present only when there is one.' }),
})
/** A design record, e.g. `{ _id, name, renderCode, createdAt, updatedAt, design: {...}, draft?: {...} }`. */
export type DesignResource = z.infer<typeof DesignResourceSchema>

/**
 * A design's render configuration (docs/http-reference.md, RenderConfig).
 *
 * @example RenderConfigSchema.parse({ render: 'https://render.example/v1/k3Jx9', data: { pure: {}, flatten: {} }, variations: [] })
 */
export const RenderConfigSchema = z.object({
  render: z.url().meta({ description: 'The render endpoint of this design: `{render_url}/v1/{renderCode}`.' }),
  data: z.object({
    pure: z.record(z.string(), z.record(z.string(), z.unknown())).meta({ description: 'Overridable dynamic fields with their current values, nested by component key.' }),
    flatten: z.record(z.string(), z.unknown()).meta({ description: 'The same fields as dot-path keys (`title.text`): the valid override keys.' }),
  }),
  variations: z
    .array(
      z.object({
        id: z.string().meta({ description: 'The value of `variation`; `master` is the base size.' }),
        name: z.string(),
        dimensions: z.object({ width: z.number(), height: z.number() }),
      }),
    )
    .meta({ description: 'The base size (`master`) first, then each variation in document order.' }),
})
/** A render configuration, e.g. `{ render: 'https://…/v1/k3Jx9', data: { pure, flatten }, variations: [{ id: 'master', … }] }`. */
export type RenderConfig = z.infer<typeof RenderConfigSchema>

