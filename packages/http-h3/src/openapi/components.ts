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
  DesignListItemSchema,
  DesignResourceSchema,
  ExportJobAckSchema,
  ExportJobViewSchema,
  OUTPUT_FORMATS,
  PaginatedDesignsSchema,
  RENDER_LINK_REFUSALS,
  RenderConfigSchema,
  UsageBucketSchema,
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
  },
  ['Design', 'ApiKey'],
)
