/**
 * The component schemas of the render and bearer endpoints' bodies: from the zod schemas of
 * `@litho/core` where they exist (bulk, designs, usage, keys), else written here; the export-job
 * bodies are keyed by `ExportJobAck` and `ExportJobView`, so a field added to either fails to
 * compile until it is described.
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
  EXPORT_JOB_MAX_RUNS,
  OUTPUT_FORMATS,
  PaginatedDesignsSchema,
  RenderConfigSchema,
  UsageBucketSchema,
  UsageResponseSchema,
  type ExportJobAck,
  type ExportJobView,
} from '@litho/core'
import type { JobStatus } from '@litho/core/contracts'
import { schemaOf, withItemsRef, type JsonSchema } from './schema.js'

const FORMAT_ENUM = [...OUTPUT_FORMATS]

/** Every status of an export job, in the order a job goes through them (a missing one fails to compile). */
const JOB_STATUSES = Object.keys({ queued: true, processing: true, succeeded: true, failed: true } satisfies Record<JobStatus, true>)

/** Schemas of the response bodies of the render and bearer endpoints (interface.md §2 and §4). */
export const RENDER_SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['success', 'message'],
    properties: {
      success: { const: false },
      message: { type: 'string', description: 'What was wrong, naming the parameter.' },
      code: { type: 'string', description: 'A stable error code, e.g. ERR_INVALID_REQUEST.' },
      issues: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
    },
  },
  QuotaError: {
    type: 'object',
    required: ['success', 'message', 'data'],
    properties: {
      success: { const: false },
      message: { type: 'string' },
      data: {
        type: 'object',
        required: ['usage', 'limit', 'remaining', 'resetAt'],
        properties: {
          usage: { type: 'number' },
          limit: { type: 'number' },
          remaining: { type: 'number' },
          resetAt: { type: 'string', format: 'date-time', description: 'When the plan window resets: the 1st of next month, 00:00 UTC.' },
        },
      },
    },
  },
  StoredFile: {
    type: 'object',
    additionalProperties: true,
    properties: {
      key: { type: 'string' },
      contentType: { type: 'string' },
      size: { type: 'integer' },
      visibility: { enum: ['public', 'private'] },
      createdAt: { type: 'string', format: 'date-time' },
      format: { enum: FORMAT_ENUM },
      width: { type: 'integer' },
      height: { type: 'integer' },
      variation: { type: 'string' },
    },
  },
  RenderResult: {
    type: 'object',
    additionalProperties: true,
    required: ['success', 'delivery', 'url', 'format', 'file'],
    properties: {
      success: { const: true },
      delivery: { enum: ['hosted', 'signed'] },
      url: { type: 'string', format: 'uri', description: 'Public URL (hosted) or expiring signed URL (signed).' },
      expiresAt: { type: 'string', format: 'date-time', description: 'Signed delivery only.' },
      format: { enum: FORMAT_ENUM },
      file: { $ref: '#/components/schemas/StoredFile' },
      warnings: { type: 'array', items: { type: 'string' }, description: 'Ignored override keys and other render warnings.' },
    },
  },
  ExportUploadResult: {
    type: 'object',
    required: ['success', 'url', 'format', 'file', 'warnings'],
    properties: {
      success: { const: true },
      url: { type: 'string', format: 'uri', description: 'Public URL of the stored export; anyone with it can fetch the file.' },
      format: { enum: FORMAT_ENUM },
      file: { $ref: '#/components/schemas/StoredFile' },
      warnings: { type: 'array', items: { type: 'string' }, description: 'Ignored override keys and other render warnings.' },
    },
  },
  ExportSignedResult: {
    type: 'object',
    required: ['success', 'url', 'expiresAt', 'format', 'file', 'warnings'],
    properties: {
      success: { const: true },
      url: { type: 'string', format: 'uri', description: 'Signed URL of the privately stored export, valid until `expiresAt`.' },
      expiresAt: { type: 'string', format: 'date-time', description: 'When the URL stops working: `expiresIn` minutes after the export.' },
      format: { enum: FORMAT_ENUM },
      file: { $ref: '#/components/schemas/StoredFile' },
      warnings: { type: 'array', items: { type: 'string' }, description: 'Ignored override keys and other render warnings.' },
    },
  },
  ExportJobAck: {
    type: 'object',
    description: 'The acknowledgement of a queued export job.',
    required: ['success', 'exportId', 'status', 'pollUrl'],
    properties: {
      success: { const: true },
      exportId: { type: 'string', description: 'The job id, `exp_` and 16 characters of `[A-Za-z0-9_-]`.' },
      status: { const: 'queued' },
      pollUrl: { type: 'string', description: 'The path of the job record, to append to `{base_url}`: `/analytics/exports/{exportId}` (also in `Location`).' },
    } satisfies Record<keyof ExportJobAck, JsonSchema>,
  },
  ExportJob: {
    type: 'object',
    description: 'An export job record as its owner sees it. Optional fields appear once they apply.',
    required: ['success', 'exportId', 'status', 'designId', 'delivery', 'format', 'createdAt', 'updatedAt', 'attempts'],
    properties: {
      success: { const: true },
      exportId: { type: 'string' },
      status: { enum: [...JOB_STATUSES], description: '`queued` → `processing` → `succeeded` or `failed`; a transient failure goes from `processing` back to `queued` for another run. `succeeded` and `failed` are final.' },
      designId: { type: 'string', description: "The design's `_id`." },
      delivery: { enum: ['hosted', 'signed'] },
      format: { enum: FORMAT_ENUM, description: 'The format asked for (png by default).' },
      createdAt: { type: 'string', format: 'date-time', description: 'When the job was queued.' },
      updatedAt: { type: 'string', format: 'date-time', description: 'When the record last changed.' },
      startedAt: { type: 'string', format: 'date-time', description: 'When the first run started.' },
      finishedAt: { type: 'string', format: 'date-time', description: 'When the job succeeded or failed.' },
      attempts: { type: 'integer', description: `Runs started so far: 1 for a job that ran once. Transient failures are retried until ${EXPORT_JOB_MAX_RUNS} runs; a run cut off by a stop or a crash counts too.` },
      url: { type: 'string', format: 'uri', description: 'Succeeded: the stored file, public (hosted) or signed until `expiresAt` (signed).' },
      expiresAt: { type: 'string', format: 'date-time', description: 'Succeeded, signed delivery: when `url` stops working (`expiresIn` minutes after the render).' },
      file: { $ref: '#/components/schemas/StoredFile' },
      error: {
        type: 'object',
        description: 'Failed: what went wrong (the render was refunded).',
        required: ['code', 'message'],
        properties: { code: { type: 'string', description: 'e.g. `ERR_RENDER_FAILED`, `ERR_IMAGE_FETCH`, `ERR_DESIGN_NOT_FOUND`.' }, message: { type: 'string' } },
      },
      webhook: {
        type: 'object',
        description: 'The completion webhook, when `webhookUrl` was given.',
        required: ['url', 'state', 'attempts'],
        properties: {
          url: { type: 'string', format: 'uri' },
          state: { enum: ['pending', 'delivered', 'failed'], description: '`failed`: every attempt of the retry schedule failed.' },
          attempts: {
            type: 'array',
            description: 'Every delivery attempt so far, oldest first: `at`, the receiver\'s `status` when it answered, `error` when the attempt failed.',
            items: {
              type: 'object',
              required: ['at'],
              properties: {
                at: { type: 'string', format: 'date-time' },
                status: { type: 'integer', description: "The receiver's HTTP status, when it answered." },
                error: { type: 'string', description: 'Why the attempt failed (not 2xx, a timeout, a refused address…).' },
              },
            },
          },
          nextAttemptAt: { type: 'string', format: 'date-time', description: 'While `pending` after a failed attempt: when the next one is due.' },
        },
      },
    } satisfies Record<keyof ExportJobView, JsonSchema>,
  },
  WebhookSecret: {
    type: 'object',
    required: ['success', 'secret'],
    properties: {
      success: { const: true },
      secret: { type: 'string', pattern: '^whsec_', description: 'The Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes.' },
    },
  },
  BulkRequest: schemaOf(BulkRequestSchema),
  BulkResultRow: {
    type: 'object',
    required: ['index', 'designId', 'filename', 'variation', 'success', 'delivery', 'format', 'warnings'],
    properties: {
      index: { type: 'integer' },
      designId: { type: 'string' },
      filename: { type: 'string', description: "The item's filename, else the stored file's name." },
      variation: { type: 'string' },
      success: { type: 'boolean' },
      url: { type: 'string', format: 'uri', description: 'On success.' },
      delivery: { enum: ['hosted', 'signed'] },
      format: { enum: FORMAT_ENUM },
      expiresAt: { type: 'string', format: 'date-time', description: 'Signed delivery only.' },
      file: { $ref: '#/components/schemas/StoredFile' },
      warnings: { type: 'array', items: { type: 'string' } },
      error: { type: 'string', description: 'On failure.' },
    },
  },
  BulkResponse: {
    type: 'object',
    required: ['success', 'results', 'summary'],
    properties: {
      success: { type: 'boolean', description: 'True when every item succeeded.' },
      results: { type: 'array', items: { $ref: '#/components/schemas/BulkResultRow' }, description: 'One per item, same order.' },
      summary: {
        type: 'object',
        required: ['total', 'succeeded', 'failed'],
        properties: { total: { type: 'integer' }, succeeded: { type: 'integer' }, failed: { type: 'integer' } },
      },
    },
  },
  DesignSummary: schemaOf(DesignListItemSchema),
  PaginatedDesigns: withItemsRef(schemaOf(PaginatedDesignsSchema), 'docs', 'DesignSummary'),
  Design: { ...schemaOf(DesignResourceSchema), additionalProperties: true },
  RenderConfig: schemaOf(RenderConfigSchema),
  UsageBucket: schemaOf(UsageBucketSchema),
  UsageResponse: withItemsRef(schemaOf(UsageResponseSchema), 'buckets', 'UsageBucket'),
  ApiKey: { ...schemaOf(ApiKeySchema), additionalProperties: true },
  ApiKeyList: withItemsRef(schemaOf(ApiKeyListSchema), 'docs', 'ApiKey'),
  CreateApiKeyRequest: schemaOf(CreateKeyBodySchema),
  CreatedApiKey: schemaOf(CreatedApiKeySchema),
  JsonRpcMessage: {
    type: 'object',
    description: 'A JSON-RPC 2.0 message of the Model Context Protocol: a request (`method` and `id`), a notification (`method`, no `id`) or a response to the server.',
    additionalProperties: true,
    required: ['jsonrpc'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'] },
      method: { type: 'string', description: 'e.g. `initialize`, `tools/list`, `tools/call`.' },
      params: { type: 'object', additionalProperties: true },
    },
  },
  DeletedApiKey: {
    type: 'object',
    required: ['success', '_id'],
    properties: { success: { const: true }, _id: { type: 'string', description: 'The id of the deleted key.' } },
  },
}
