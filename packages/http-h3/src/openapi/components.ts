/**
 * The component schemas of the render and bearer endpoints' bodies, as zod schemas that the
 * routes name as their bodies and responses: the schemas of `@litho/core` where they exist
 * (bulk, designs, usage, keys, export jobs), else declared here.
 *
 * @module openapi/components
 */
import {
  ApiKeyListSchema,
  ApiKeySchema,
  BulkRequestSchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  CreateDesignInputSchema,
  DesignListItemSchema,
  DesignResourceSchema,
  ExportJobAckSchema,
  ExportJobViewSchema,
  ExportWebhookDeliverySchema,
  MAX_LISTED_JOBS,
  OUTPUT_FORMATS,
  PaginatedDesignsSchema,
  PreviewDesignInputSchema,
  RENDER_LINK_REFUSALS,
  RenderConfigSchema,
  UsageBucketSchema,
  UpdateDesignInputSchema,
  UsageResponseSchema,
} from '@litho/core'
import * as z from 'zod'
import { defineComponents } from './schema.js'

/** A date-time string, written like core's (`format: date-time`, no pattern). */
const dateTime = (description?: string) => z.string().meta({ format: 'date-time', ...(description === undefined ? {} : { description }) })

const formatEnum = z.enum(OUTPUT_FORMATS)
const deliveryEnum = z.enum(['hosted', 'signed'])
const warnings = z.array(z.string()).meta({ description: 'Ignored override keys and other render warnings.' })


/** A Litho error body (docs/http-reference.md). */
export const ErrorSchema = z.object({
  success: z.literal(false),
  message: z.string().meta({ description: 'What was wrong, naming the parameter.' }),
  code: z.string().optional().meta({ description: 'A stable error code, e.g. ERR_INVALID_REQUEST.' }),
  issues: z.array(z.object({ path: z.string().optional(), message: z.string().optional() })).optional(),
  reason: z
    .enum(RENDER_LINK_REFUSALS)
    .optional()
    .meta({ description: 'Why a [signed render link](./signed-render-links.md) was refused (`code` `ERR_BAD_SIGNATURE`).' }),
  requestId: z.string().optional().meta({ description: 'The request id, as in the `X-Request-Id` response header ([observability](./observability.md#request-ids)).' }),
})

/** The body of a 429: the quota used up. */
export const QuotaErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  data: z.object({
    usage: z.number(),
    limit: z.number(),
    remaining: z.number(),
    resetAt: dateTime('When the plan window resets: the 1st of next month, 00:00 UTC (next Monday or the next day on a weekly or daily plan).'),
  }),
  requestId: z.string().optional().meta({ description: 'The request id, as in the `X-Request-Id` response header.' }),
})

/** A stored file's record. */
export const StoredFileSchema = z.looseObject({
  key: z.string().optional(),
  contentType: z.string().optional(),
  size: z.int().optional(),
  visibility: z.enum(['public', 'private']).optional(),
  createdAt: dateTime().optional(),
  format: formatEnum.optional(),
  width: z.int().optional(),
  height: z.int().optional(),
  variation: z.string().optional(),
})

/** The JSON answer of a hosted or signed render. */
export const RenderResultSchema = z.looseObject({
  success: z.literal(true),
  delivery: deliveryEnum,
  url: z.url().meta({ description: 'Public URL (hosted) or expiring signed URL (signed).' }),
  expiresAt: dateTime('Signed delivery only.').optional(),
  format: formatEnum,
  file: StoredFileSchema,
  warnings: warnings.optional(),
})

/** The answer of an export stored publicly. */
export const ExportUploadResultSchema = z.object({
  success: z.literal(true),
  url: z.url().meta({ description: 'Public URL of the stored export; anyone with it can fetch the file.' }),
  format: formatEnum,
  file: StoredFileSchema,
  warnings,
})

/** The answer of an export stored privately, behind a signed URL. */
export const ExportSignedResultSchema = z.object({
  success: z.literal(true),
  url: z.url().meta({ description: 'Signed URL of the privately stored export, valid until `expiresAt`.' }),
  expiresAt: dateTime('When the URL stops working: `expiresIn` minutes after the export.'),
  format: formatEnum,
  file: StoredFileSchema,
  warnings,
})

/**
 * An export job record as its owner sees it (`ExportJobView`): the contract's schema, with the
 * stored file described as a StoredFile.
 */
export const ExportJobSchema = ExportJobViewSchema.extend({ file: StoredFileSchema.optional() }).meta({
  description: 'An export job record as its owner sees it. Optional fields appear once they apply.',
})

/** The fields of a page of a list, as the design list has them. */
const pageFields = (what: string) => ({
  page: z.int().meta({ description: 'This page, from 1.' }),
  totalPages: z.int().meta({ description: 'Pages at this `$limit`; at least 1 (with none, page 1 is empty).' }),
  hasNextPage: z.boolean(),
  totalDocs: z.int().meta({ description: `${what} listed (the newest ${MAX_LISTED_JOBS} export jobs of the account at most).` }),
  limit: z.int().meta({ description: 'The page size used.' }),
})

/** A page of the account's export jobs. */
export const PaginatedExportJobsSchema = z.object({ docs: z.array(ExportJobSchema).meta({ description: 'Newest first (by `createdAt`).' }), ...pageFields('Export jobs') })

/** A page of the account's completion webhooks and their delivery attempts. */
export const PaginatedWebhookDeliveriesSchema = z.object({ docs: z.array(ExportWebhookDeliverySchema).meta({ description: 'Newest export first.' }), ...pageFields('Webhooks') })

/** The webhook signing secret. */
export const WebhookSecretSchema = z.object({
  success: z.literal(true),
  secret: z.string().regex(/^whsec_/).meta({ description: 'The Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes.' }),
})

/** One row of a bulk answer. */
export const BulkResultRowSchema = z.object({
  index: z.int(),
  designId: z.string(),
  filename: z.string().meta({ description: "The item's filename, else the stored file's name." }),
  variation: z.string(),
  success: z.boolean(),
  url: z.url().optional().meta({ description: 'On success.' }),
  delivery: deliveryEnum,
  format: formatEnum,
  expiresAt: dateTime('Signed delivery only.').optional(),
  file: StoredFileSchema.optional(),
  warnings: z.array(z.string()),
  error: z.string().optional().meta({ description: 'On failure.' }),
})

/** The answer of a bulk render. */
export const BulkResponseSchema = z.object({
  success: z.boolean().meta({ description: 'True when every item succeeded.' }),
  results: z.array(BulkResultRowSchema).meta({ description: 'One per item, same order.' }),
  summary: z.object({ total: z.int(), succeeded: z.int(), failed: z.int() }),
})

/** A JSON-RPC 2.0 message of the Model Context Protocol. */
export const JsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.int()]).optional(),
    method: z.string().optional().meta({ description: 'e.g. `initialize`, `tools/list`, `tools/call`.' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'A JSON-RPC 2.0 message of the Model Context Protocol: a request (`method` and `id`), a notification (`method`, no `id`) or a response to the server.' })

/** The answer to a key deletion. */
export const DeletedApiKeySchema = z.object({ success: z.literal(true), _id: z.string().meta({ description: 'The id of the deleted key.' }) })

/** The body of `PATCH /designs/v2/{id}`: `update_design`'s input without the id, and `publish`. */
export const UpdateDesignBodySchema = UpdateDesignInputSchema.omit({ id: true })
  .extend({
    publish: z.boolean().optional().meta({
      description: 'true: the new document (or patched draft) is published in the same write and the draft cleared; with neither `document` nor `patch`, the current draft is published (as `POST /designs/v2/{id}/publish`), after the rename if `name` is given.',
      default: false,
    }),
  })
  .meta({ description: 'What changes: `name`, and `document` (a whole new draft) or `patch` (changes to the draft), not both; `publish` to publish at once.' })

/** The body of `POST /designs/v2/{id}/preview`: `render_preview`'s input without the id, and an unsaved `document`. */
export const PreviewDesignBodySchema = PreviewDesignInputSchema.omit({ id: true })
  .extend({
    document: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'An unsaved design document (version 2) to render instead of a stored version: validated like `PATCH`\'s `document` (problems at `document.…`), never stored. Not with `source`.' }),
  })
  .meta({ description: 'What to preview; every field optional (an empty body previews the draft, else the published version).' })

/** The box of one visible component in a preview's rendered size. */
export const ComponentBoxSchema = z.object({
  key: z.string(),
  type: z.enum(['text', 'image', 'shape', 'qrcode', 'barcode', 'group']),
  x: z.number().meta({ description: 'Left edge in pixels of the rendered size (the box before rotation).' }),
  y: z.number().meta({ description: 'Top edge in pixels of the rendered size.' }),
  width: z.number(),
  height: z.number(),
  parent: z.string().optional().meta({ description: 'The key of the group it is in; absent at the top level.' }),
  rotation: z.number().optional().meta({ description: "Degrees clockwise about the box's centre, when not 0." }),
})

/** The answer of a preview. */
export const DesignPreviewSchema = z.object({
  image: z.string().meta({ description: 'The PNG as a data URI: `data:image/png;base64,…`.' }),
  width: z.int().meta({ description: 'Width of the image in pixels.' }),
  height: z.int(),
  scale: z.number().meta({ description: 'Image pixels per pixel of the rendered size: 1 when not scaled down, e.g. 0.474 for 2160 → 1024.' }),
  source: z.enum(['draft', 'published', 'document']).meta({ description: 'The version rendered: `document` for the unsaved document of the request.' }),
  variation: z.string().meta({ description: '`master` or the variation id rendered.' }),
  warnings: z
    .array(z.looseObject({ code: z.string().meta({ description: 'e.g. `override_ignored`, `text_shrunk`, `text_cut`, `image_failed`.' }), key: z.string().optional(), message: z.string() }))
    .meta({ description: 'Ignored overrides, shrunk or cut text, missing glyphs, font fallbacks, images left out.' }),
  summary: z.string().meta({ description: 'One line: what was rendered and how many overrides were applied; when none was, it says so first.' }),
  layout: z
    .object({
      width: z.int().meta({ description: 'The rendered (full, unscaled) width.' }),
      height: z.int(),
      components: z.array(ComponentBoxSchema).meta({ description: 'Every visible component, in paint order (a group before its children).' }),
    })
    .meta({ description: 'Where each visible component was drawn, auto-layout included (one wholly off the canvas, which paints nothing, is placed from its `x`/`y`).' }),
})

/** The answer to a design deletion. */
export const DeletedDesignSchema = z.object({ success: z.literal(true), _id: z.string().meta({ description: 'The id of the deleted design.' }) })

/** The answer to a link-secret rotation: the only time the new secret is shown. */
export const LinkSecretSchema = z.object({
  success: z.literal(true),
  _id: z.string().meta({ description: 'The key’s id: the `kid` of its links.' }),
  linkSecret: z.string().regex(/^lks_/).meta({ description: 'The new link secret (`lks_` and 43 base64url characters), to sign render links offline. Shown once; links signed with the previous one stop working.' }),
})

/** The component schemas of the render and bearer endpoints (docs/http-reference.md, "Schemas"), by name; `Design` and `ApiKey` may carry more fields. */
export const RENDER_COMPONENTS = defineComponents(
  {
    Error: ErrorSchema,
    QuotaError: QuotaErrorSchema,
    StoredFile: StoredFileSchema,
    RenderResult: RenderResultSchema,
    ExportUploadResult: ExportUploadResultSchema,
    ExportSignedResult: ExportSignedResultSchema,
    ExportJobAck: ExportJobAckSchema,
    ExportJob: ExportJobSchema,
    WebhookSecret: WebhookSecretSchema,
    BulkRequest: BulkRequestSchema,
    BulkResultRow: BulkResultRowSchema,
    BulkResponse: BulkResponseSchema,
    DesignSummary: DesignListItemSchema,
    PaginatedDesigns: PaginatedDesignsSchema,
    Design: DesignResourceSchema,
    RenderConfig: RenderConfigSchema,
    UsageBucket: UsageBucketSchema,
    UsageResponse: UsageResponseSchema,
    ApiKey: ApiKeySchema,
    ApiKeyList: ApiKeyListSchema,
    CreateApiKeyRequest: CreateKeyBodySchema,
    CreatedApiKey: CreatedApiKeySchema,
    JsonRpcMessage: JsonRpcMessageSchema,
    DeletedApiKey: DeletedApiKeySchema,
    LinkSecret: LinkSecretSchema,
    CreateDesignRequest: CreateDesignInputSchema,
    UpdateDesignRequest: UpdateDesignBodySchema,
    DeletedDesign: DeletedDesignSchema,
    PreviewDesignRequest: PreviewDesignBodySchema,
    DesignPreview: DesignPreviewSchema,
    ComponentBox: ComponentBoxSchema,
    PaginatedExportJobs: PaginatedExportJobsSchema,
    WebhookDelivery: ExportWebhookDeliverySchema,
    PaginatedWebhookDeliveries: PaginatedWebhookDeliveriesSchema,
  },
  ['Design', 'ApiKey'],
)
