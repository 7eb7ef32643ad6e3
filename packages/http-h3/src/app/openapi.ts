/**
 * The OpenAPI 3.1 document of what the app serves, generated from the zod schemas that
 * validate the requests (`RenderParamsSchema`, `BulkRequestSchema` of `@litho/core`), so the
 * document and the validation cannot drift apart.
 *
 * @module app/openapi
 */
import { BULK_DEFAULT_FORMAT, BulkRequestSchema, MAX_BULK_ITEMS, OUTPUT_FORMATS, RenderParamsSchema } from '@litho/core'
import { toJSONSchema, type ZodType } from 'zod'

type JsonSchema = Record<string, unknown>

const schemaOf = (schema: ZodType): JsonSchema => {
  const out = toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema
  delete out.$schema
  return out
}

const errorBody = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

const FORMAT_ENUM = [...OUTPUT_FORMATS]

/** Schemas of the response bodies (interface.md §2 and §4). */
const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
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
}

/** The query parameters of a render, one OpenAPI parameter per field of `RenderParamsSchema`. */
function renderQueryParameters(): JsonSchema[] {
  const schema = schemaOf(RenderParamsSchema) as { properties: Record<string, JsonSchema> }
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property
    return { name, in: 'query', required: false, description, schema: rest }
  })
}

const quotaResponseHeaders = {
  'X-Quota-Limit': { description: "Renders a month on the account's plan.", schema: { type: 'integer' } },
  'X-Quota-Remaining': { description: 'Renders left in this window.', schema: { type: 'integer' } },
  'X-Quota-Reset': { description: 'When the window resets (ISO 8601).', schema: { type: 'string', format: 'date-time' } },
}

const commonErrors = {
  '400': errorBody('A parameter or the body is invalid; `message` names it.'),
  '401': errorBody('Missing, unknown or deactivated render key.'),
  '429': {
    description: 'Render quota used up; retry after `data.resetAt`.',
    headers: { 'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/QuotaError' } } },
  },
  '503': {
    description: 'The render queue is full (or storage is unavailable); retry shortly.',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
}

/**
 * Builds the OpenAPI 3.1 document for the given addresses.
 *
 * @example const doc = createOpenApiDocument({ renderUrl: 'http://localhost:3000', baseUrl: 'http://localhost:3000', authUrl: 'http://localhost:3000' })
 */
export function createOpenApiDocument(addresses: { renderUrl: string; baseUrl: string; authUrl: string }): JsonSchema {
  const designId = { name: 'design_id', in: 'path', required: true, description: 'The render code of the design (from its render config), not its `_id`.', schema: { type: 'string' } }
  const overridesParam = {
    name: 'overrides',
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description: 'Dynamic-field overrides as `<component_key>.<field>=<value>` (e.g. `title.text=Hello`). Keys that name nothing are ignored and reported in `X-Litho-Ignored-Overrides`.',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  }
  const renderResponses = {
    '200': {
      description: 'The image (`delivery=stream`, the default) or the render result (`hosted`, `signed`).',
      headers: {
        ...quotaResponseHeaders,
        'X-Litho-Ignored-Overrides': { description: 'Comma-separated, percent-encoded override keys that were ignored.', schema: { type: 'string' } },
        'X-Litho-Warnings': { description: 'Number of render warnings.', schema: { type: 'integer' } },
      },
      content: {
        'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
        'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
        'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
        'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
        'application/json': { schema: { $ref: '#/components/schemas/RenderResult' } },
      },
    },
    ...commonErrors,
    '404': errorBody('No published design of this account has this render code.'),
    '413': errorBody('The body is larger than the limit.'),
    '422': errorBody('A remote image or font the design needs could not be fetched or decoded.'),
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Litho render service',
      version: '1.0.0',
      description: 'Renders stored designs to png, jpeg, webp and pdf. Every render (each GET, POST and bulk item) counts as one call against the monthly plan quota.',
    },
    servers: [{ url: addresses.renderUrl, description: '{render_url}' }],
    components: {
      securitySchemes: {
        renderKeyHeader: { type: 'apiKey', in: 'header', name: 'dma-api-key' },
        renderKeyQuery: { type: 'apiKey', in: 'query', name: 'dma-api-key' },
        renderKeyQueryKey: { type: 'apiKey', in: 'query', name: 'key' },
        renderKeyQueryApiKey: { type: 'apiKey', in: 'query', name: 'api-key' },
      },
      schemas: RESPONSE_SCHEMAS,
    },
    paths: {
      '/v1/{design_id}': {
        get: {
          operationId: 'renderDesign',
          summary: 'Render a design (overrides in the query)',
          description: 'A GET render URL used in an image tag counts as a render.',
          security: [{ renderKeyHeader: [] }, { renderKeyQuery: [] }, { renderKeyQueryKey: [] }, { renderKeyQueryApiKey: [] }],
          parameters: [designId, ...renderQueryParameters(), overridesParam],
          responses: renderResponses,
        },
        post: {
          operationId: 'renderDesignWithBody',
          summary: 'Render a design (overrides in a JSON body)',
          description: 'The body is an object of overrides (dot-paths or nested). `format`, `quality`, `variation`, `delivery` and `expiresIn` may also be given in the body; the query wins. Nothing is stored unless delivery is hosted or signed.',
          security: [{ renderKeyHeader: [] }],
          parameters: [designId, ...renderQueryParameters()],
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } },
          responses: renderResponses,
        },
      },
      '/bulk': {
        post: {
          operationId: 'bulkRender',
          summary: `Render 1-${MAX_BULK_ITEMS} items in one call`,
          description: `Each item is one render against the quota, metered all or nothing (a 429 renders nothing); a failed item is refunded and reported on its row without aborting the others. Items without a format of their own use the request's, else ${BULK_DEFAULT_FORMAT}.`,
          security: [{ renderKeyHeader: [] }, { renderKeyQuery: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BulkRequest' } } } },
          responses: {
            '200': { description: 'One row per item, in order, and a summary.', headers: quotaResponseHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/BulkResponse' } } } },
            ...commonErrors,
            '413': errorBody('The body is larger than the limit.'),
          },
        },
      },
      '/files/{key}': {
        get: {
          operationId: 'getStoredFile',
          summary: 'A stored render (hosted: public; signed: with exp, kid and sig)',
          description: 'Served by the app for the filesystem and Redis file stores. On S3 the URLs point at the bucket instead.',
          parameters: [
            { name: 'key', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'exp', in: 'query', required: false, schema: { type: 'integer' } },
            { name: 'kid', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'sig', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'The file.', content: { 'image/*': {}, 'application/pdf': {} } },
            '403': errorBody('Private file without a valid signature, or the signed URL expired.'),
            '404': errorBody('No such file.'),
          },
        },
      },
    },
  }
}
