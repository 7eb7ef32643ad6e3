/**
 * The OpenAPI 3.1 document of what the app serves, generated from the zod schemas that
 * validate the requests and shape the answers (`RenderParamsSchema`, `BulkRequestSchema`,
 * `ExportParamsSchema`, the param and response schemas of the bearer operations of
 * `@litho/core`; the export-job bodies, written here, are keyed by `ExportJobAck` and
 * `ExportJobView`, so a field added to either fails to compile until it is described), so the
 * document and the code cannot drift apart. It covers the render endpoints (`{render_url}`),
 * the bearer endpoints and their RFC 9728 documents (`{base_url}`), and the built-in
 * authorization server (`{auth_url}`).
 *
 * @module app/openapi
 */
import {
  ApiKeyListSchema,
  ApiKeySchema,
  BULK_DEFAULT_FORMAT,
  BulkRequestSchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  DEFAULT_USAGE_DAYS,
  DesignListItemSchema,
  DesignResourceSchema,
  EXPORT_JOB_MAX_RUNS,
  EXPORT_RESERVED_KEYS,
  ExportParamsSchema,
  ListDesignsParamsSchema,
  ListKeysParamsSchema,
  MAX_API_KEYS,
  MAX_BULK_ITEMS,
  MAX_USAGE_BUCKETS,
  OUTPUT_FORMATS,
  PaginatedDesignsSchema,
  RenderConfigSchema,
  RenderParamsSchema,
  UsageBucketSchema,
  UsageParamsSchema,
  UsageResponseSchema,
  type ExportJobAck,
  type ExportJobView,
} from '@litho/core'
import type { JobStatus } from '@litho/core/contracts'
import { OAUTH_PATHS, SCOPES } from '@litho/auth-adapters'
import { toJSONSchema, type ZodType } from 'zod'

type JsonSchema = Record<string, unknown>

/** Bounds zod gives every `.int()` (the safe-integer range): noise in a document. */
const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/** Drops what says nothing: safe-integer bounds and `propertyNames: { type: 'string' }` (JSON keys are strings). */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (typeof value !== 'object' || value === null) return value
  const out: JsonSchema = {}
  for (const [key, entry] of Object.entries(value)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_BOUNDS.has(entry as number)) continue
    if (key === 'propertyNames' && JSON.stringify(entry) === '{"type":"string"}') continue
    out[key] = tidy(entry)
  }
  return out
}

const schemaOf = (schema: ZodType): JsonSchema => {
  const out = tidy(toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema
  delete out.$schema
  return out
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** `schema` with the items of its array property `property` replaced by a reference to `name`. */
function withItemsRef(schema: JsonSchema, property: string, name: string): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>
  return { ...schema, properties: { ...properties, [property]: { ...properties[property], items: ref(name) } } }
}

const errorBody = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

const FORMAT_ENUM = [...OUTPUT_FORMATS]

/** Every status of an export job, in the order a job goes through them (a missing one fails to compile). */
const JOB_STATUSES = Object.keys({ queued: true, processing: true, succeeded: true, failed: true } satisfies Record<JobStatus, true>)

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
  DeletedApiKey: {
    type: 'object',
    required: ['success', '_id'],
    properties: { success: { const: true }, _id: { type: 'string', description: 'The id of the deleted key.' } },
  },
  ProtectedResourceMetadata: {
    type: 'object',
    description: 'RFC 9728 protected-resource metadata.',
    required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
    properties: {
      resource: { type: 'string', format: 'uri', description: 'The resource: `{base_url}`, or `{base_url}/api/mcp` for the MCP endpoint. Tokens must be issued for it (`resource` parameter, RFC 8707).' },
      authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Issuers whose tokens are accepted, e.g. `{auth_url}/org/{org}`; their metadata is at `{auth_url}/.well-known/oauth-authorization-server/org/{org}`.' },
      scopes_supported: { type: 'array', items: { enum: [...SCOPES] } },
      bearer_methods_supported: { type: 'array', items: { const: 'header' } },
      resource_name: { type: 'string' },
      resource_documentation: { type: 'string', format: 'uri', description: 'This document (`{base_url}/openapi.json`).' },
    },
  },
  OAuthError: {
    type: 'object',
    description: 'An OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2).',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'e.g. `invalid_request`, `invalid_client`, `invalid_grant`, `invalid_scope`, `invalid_target`, `unsupported_grant_type`, `unauthorized_client`, `invalid_redirect_uri`, `invalid_client_metadata`.' },
      error_description: { type: 'string' },
    },
  },
  AuthorizationServerMetadata: {
    type: 'object',
    description: 'RFC 8414 authorization-server metadata of one org.',
    additionalProperties: true,
    required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'grant_types_supported', 'code_challenge_methods_supported', 'scopes_supported'],
    properties: {
      issuer: { type: 'string', format: 'uri', description: '`{auth_url}/org/{org}`.' },
      authorization_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.authorize}\` (without \`?org=\`: the org comes from the client).` },
      token_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.token}?org={org}\`.` },
      registration_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.register}?org={org}\`.` },
      revocation_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.revoke}?org={org}\`.` },
      end_session_endpoint: { type: 'string', format: 'uri', description: `\`{auth_url}${OAUTH_PATHS.logout}\`: ends the browser session of the sign-in pages.` },
      jwks_uri: { type: 'string', format: 'uri', description: '`{auth_url}/org/{org}/jwks.json`.' },
      response_types_supported: { type: 'array', items: { const: 'code' } },
      response_modes_supported: { type: 'array', items: { const: 'query' } },
      grant_types_supported: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] } },
      code_challenge_methods_supported: { type: 'array', items: { const: 'S256' } },
      token_endpoint_auth_methods_supported: { type: 'array', items: { enum: ['none', 'client_secret_basic', 'client_secret_post'] } },
      revocation_endpoint_auth_methods_supported: { type: 'array', items: { enum: ['none', 'client_secret_basic', 'client_secret_post'] } },
      scopes_supported: { type: 'array', items: { enum: [...SCOPES] } },
      authorization_response_iss_parameter_supported: { const: true },
      client_id_metadata_document_supported: { type: 'boolean', description: 'Whether an https URL of a Client ID Metadata Document is accepted as `client_id`.' },
      resource_indicators_supported: { const: true },
      agent_auth: {
        type: 'object',
        description: 'Identity type `anonymous`: register at `register_uri`, bind a user at `claim_uri` (the authorization endpoint), revoke at `revocation_uri`.',
        properties: {
          identity_types_supported: { type: 'array', items: { const: 'anonymous' } },
          anonymous: { type: 'object', properties: { credential_types_supported: { type: 'array', items: { const: 'oauth2_client' } } } },
          register_uri: { type: 'string', format: 'uri' },
          claim_uri: { type: 'string', format: 'uri' },
          revocation_uri: { type: 'string', format: 'uri' },
        },
      },
    },
  },
  Jwks: {
    type: 'object',
    description: 'The public keys (ES256, JWK) that sign the access tokens of an org.',
    required: ['keys'],
    properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { kty: { const: 'EC' }, crv: { const: 'P-256' }, kid: { type: 'string' }, alg: { const: 'ES256' }, use: { const: 'sig' }, x: { type: 'string' }, y: { type: 'string' } } } } },
  },
  ClientRegistrationRequest: {
    type: 'object',
    description: 'RFC 7591 client metadata.',
    required: ['redirect_uris'],
    properties: {
      client_name: { type: 'string', maxLength: 200, default: 'Unnamed client', description: 'Shown on the consent page.' },
      redirect_uris: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', format: 'uri' }, description: 'https, http on a loopback host (any port matches), or a reverse-domain private-use scheme; no fragment, no credentials.' },
      grant_types: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] }, default: ['authorization_code'], description: 'Must include `authorization_code`; add `refresh_token` to get refresh tokens.' },
      response_types: { type: 'array', items: { const: 'code' }, default: ['code'] },
      token_endpoint_auth_method: { enum: ['none', 'client_secret_basic', 'client_secret_post'], default: 'client_secret_basic', description: '`none` for public clients (PKCE only); the others get a `client_secret`.' },
      scope: { type: 'string', description: 'The scopes the client may ask for, space separated (`read`, `write`); default both.' },
      application_type: { enum: ['web', 'native'] },
      client_uri: { type: 'string', format: 'uri', description: 'https only.' },
      logo_uri: { type: 'string', format: 'uri', description: 'https only.' },
    },
  },
  ClientRegistrationResponse: {
    type: 'object',
    required: ['client_id', 'client_id_issued_at', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method'],
    properties: {
      client_id: { type: 'string', description: '`<org>.<random>`.' },
      client_id_issued_at: { type: 'integer' },
      client_secret: { type: 'string', description: 'Confidential clients only; shown once.' },
      client_secret_expires_at: { const: 0, description: 'Confidential clients only: the secret does not expire.' },
      client_name: { type: 'string' },
      redirect_uris: { type: 'array', items: { type: 'string' } },
      grant_types: { type: 'array', items: { type: 'string' } },
      response_types: { type: 'array', items: { type: 'string' } },
      token_endpoint_auth_method: { type: 'string' },
      application_type: { type: 'string' },
      scope: { type: 'string' },
      client_uri: { type: 'string' },
      logo_uri: { type: 'string' },
    },
  },
  TokenRequest: {
    type: 'object',
    description: 'Form fields of the token endpoint. A confidential client authenticates with HTTP Basic or `client_secret`.',
    required: ['grant_type'],
    properties: {
      grant_type: { enum: ['authorization_code', 'refresh_token'] },
      code: { type: 'string', description: '`authorization_code`: the code from the redirect (usable once, for 60 s by default).' },
      redirect_uri: { type: 'string', description: '`authorization_code`: the one of the authorization request.' },
      code_verifier: { type: 'string', description: '`authorization_code`: the PKCE verifier, 43-128 characters.' },
      refresh_token: { type: 'string', description: '`refresh_token`: the current refresh token (it rotates on every use).' },
      scope: { type: 'string', description: '`refresh_token`: narrow the granted scopes.' },
      resource: { type: 'string', format: 'uri', description: 'The resource of the authorization request (RFC 8707): `{base_url}` or `{base_url}/api/mcp`.' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', description: 'With `client_secret_post`.' },
    },
  },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    properties: {
      access_token: { type: 'string', description: 'A JWT (RFC 9068, `typ: at+jwt`, ES256) for `Authorization: Bearer`, with the audience of the authorized resource.' },
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Seconds; 3600 by default.' },
      scope: { type: 'string', description: 'The granted scopes, space separated.' },
      refresh_token: { type: 'string', description: 'For clients registered with the `refresh_token` grant. Rotates on every use; a reuse after a short grace window revokes the whole sign-in.' },
    },
  },
  RevocationRequest: {
    type: 'object',
    description: 'Form fields of RFC 7009 revocation. Revoking either token revokes the whole sign-in (its refresh and access tokens).',
    required: ['token'],
    properties: {
      token: { type: 'string', description: 'An access token or a refresh token.' },
      token_type_hint: { enum: ['access_token', 'refresh_token'], description: 'Accepted and ignored: the token is recognised by its form.' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', description: 'With `client_secret_post`.' },
    },
  },
}

/** One optional query parameter per field of a zod object schema (`RenderParamsSchema`, `ListDesignsParamsSchema`…). */
function queryParameters(zodSchema: ZodType): JsonSchema[] {
  const schema = schemaOf(zodSchema) as { properties: Record<string, JsonSchema> }
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property
    return { name, in: 'query', required: false, description, schema: rest }
  })
}

/** The query parameters of a render, one OpenAPI parameter per field of `RenderParamsSchema`. */
const renderQueryParameters = () => queryParameters(RenderParamsSchema)

/** The query parameters of an export (`ExportParamsSchema`); `expiresIn` only where the URL is signed. */
const exportQueryParameters = (signed: boolean) => queryParameters(signed ? ExportParamsSchema : ExportParamsSchema.omit({ expiresIn: true }))

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
    headers: { 'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } }, ...quotaResponseHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/QuotaError' } } },
  },
  '503': {
    description: 'The render queue is full (or storage is unavailable); retry shortly.',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
}

/** The 403 of a stored delivery past the plan's storage (docs/quotas-and-plans.md). */
const STORAGE_FULL = "The plan's storage of rendered files is full (`code` `ERR_STORAGE_QUOTA`, `data.usage` and `data.limit` in bytes): nothing was stored and the render was refunded. Hosted and signed deliveries only; streamed renders still work."

const challenge = { description: 'RFC 6750 challenge naming the protected-resource metadata (`resource_metadata`) and, for 403, the scopes needed.', schema: { type: 'string' } }

/** The 401 and 403 of a bearer endpoint. */
const bearerErrors = {
  '401': { ...errorBody('Missing, malformed, invalid, expired or revoked access token, or one issued for another resource. `WWW-Authenticate` says which.'), headers: { 'WWW-Authenticate': challenge } },
  '403': { ...errorBody('The token lacks the scope this operation needs (`insufficient_scope`).'), headers: { 'WWW-Authenticate': challenge } },
}

/** A JSON response of `schema` (a component name). */
const jsonResponse = (description: string, schema: string, headers?: JsonSchema) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: ref(schema) } } })

const oauthErrorBody = (description: string, headers?: JsonSchema) => jsonResponse(description, 'OAuthError', headers)

/** The scopes of the built-in authorization server, as OpenAPI describes them. */
const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  read: 'Read designs, render configs, usage, export jobs and the list of API keys.',
  write: 'Export designs (each export is a metered render), create and delete render API keys, and read and rotate the webhook signing secret.',
}

/**
 * Builds the OpenAPI 3.1 document for the given addresses. It always describes the bearer
 * endpoints and the authorization server's, whether or not this app mounts them (they need a
 * bearer verifier, and the built-in server for the `oauth` ones); paths name their server.
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
    '403': errorBody(STORAGE_FULL),
    '404': errorBody('No published design of this account has this render code.'),
    '413': errorBody('The body is larger than the limit.'),
    '422': errorBody('A remote image or font the design needs could not be fetched or decoded.'),
  }
  const base = [{ url: addresses.baseUrl, description: '{base_url}' }]
  const auth = [{ url: addresses.authUrl, description: '{auth_url}' }]
  const authorizeUrl = `${addresses.authUrl}${OAUTH_PATHS.authorize}`
  const tokenUrl = `${addresses.authUrl}${OAUTH_PATHS.token}`
  const bearer = (scope: (typeof SCOPES)[number]) => [{ oauth2: [scope] }]
  const pathId = (description: string) => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string' } })
  const designPathId = pathId("The design's `_id` (from the design list), not its render code.")
  const exportDescription = `One render against the quota, consumed before rendering and refunded if the export fails; a 429 when the quota is used up. Bad input (400, 404) costs nothing. Parameters may also be given in the JSON body (\`draft\` as a JSON boolean there); the query wins. The body's other keys are overrides, after the reserved keys (${EXPORT_RESERVED_KEYS.map((k) => `\`${k}\``).join(', ')}) are stripped; override dot-paths are also accepted in the query. Without \`draft\`, the published version is exported (a design never published is a 404 saying to pass \`draft=true\`).`
  const exportOverridesParam = { ...overridesParam, description: 'Dynamic-field overrides as `<component_key>.<field>=<value>`; body overrides win. Keys that name nothing are ignored and reported in `X-Litho-Ignored-Overrides`.' }
  const exportBody = { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: true, description: 'Overrides (dot-paths or nested) and the parameters `format`, `quality`, `variation`, `draft`, `expiresIn`.' } } } }
  const exportHeaders = {
    ...quotaResponseHeaders,
    'X-Litho-Source': { description: 'Which version was exported: `published` or `draft`.', schema: { enum: ['published', 'draft'] } },
    'X-Litho-Ignored-Overrides': { description: 'Comma-separated, percent-encoded override keys that were ignored.', schema: { type: 'string' } },
    'X-Litho-Warnings': { description: 'Number of render warnings.', schema: { type: 'integer' } },
  }
  const exportErrors = {
    '400': errorBody('A parameter or the body is invalid (`message` names it), an override value is invalid for its field, or the variation is unknown (`available` lists the valid ones).'),
    ...bearerErrors,
    '404': errorBody('No design of yours has this id, or it was never published and `draft` is not true.'),
    '413': errorBody('The body is larger than the limit (2 MiB by default).'),
    '422': errorBody('A remote image or font the design needs could not be fetched or decoded (refunded).'),
    '429': commonErrors['429'],
    '500': errorBody('The render failed (refunded).'),
    '503': commonErrors['503'],
  }
  const org = { name: 'org', in: 'path', required: true, description: 'The org id, as in the issuer `{auth_url}/org/{org}` named by the protected-resource metadata.', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } }
  const orgQuery = (description: string) => ({ name: 'org', in: 'query', required: false, description, schema: { type: 'string' } })
  const protectedResource = (resource: string, operationId: string) => ({
    servers: base,
    get: {
      operationId,
      tags: ['oauth'],
      summary: `Protected-resource metadata (RFC 9728) of ${resource}`,
      description: 'Where a client learns which authorization server issues tokens for this resource and which scopes exist.',
      security: [],
      responses: { '200': jsonResponse('The metadata (cacheable for 5 minutes).', 'ProtectedResourceMetadata') },
    },
  })
  return {
    openapi: '3.1.0',
    info: {
      title: 'Litho API',
      version: '1.0.0',
      description: [
        'Renders stored designs to png, jpeg, webp and pdf, and gives the signed-in owner their designs, render configurations, exports, usage history and render keys. Every render (each GET, POST, bulk item and export, a queued export job included) counts as one call against the monthly plan quota.',
        '',
        'Addresses: render endpoints (`/v1/…`, `/bulk`, `/files/…`) are relative to `{render_url}`; the design, export, analytics and settings endpoints and the protected-resource metadata to `{base_url}`; the authorization server to `{auth_url}`. Each path names its server.',
        '',
        'Credentials: render endpoints take a render key (`dma-api-key`). The design, export, analytics and settings endpoints take an OAuth 2.0 access token, `Authorization: Bearer <token>`, with scope `read` (reads) or `write` (exports, key changes and the webhook signing secret, reading it included); they answer 401 or 403 with a `WWW-Authenticate` challenge, and CORS preflights without a token.',
        '',
        `Getting a token (authorization code with PKCE S256): (1) \`GET {base_url}/.well-known/oauth-protected-resource\` names the issuer \`{auth_url}/org/{org}\`; (2) \`GET {auth_url}/.well-known/oauth-authorization-server/org/{org}\` gives its endpoints; (3) register a client at \`POST {auth_url}${OAUTH_PATHS.register}?org={org}\` (RFC 7591), or use a pre-issued client id; (4) send the user to \`{auth_url}${OAUTH_PATHS.authorize}\` with \`client_id\`, \`redirect_uri\`, \`response_type=code\`, \`scope\`, \`resource\` (\`{base_url}\`), \`code_challenge\`, \`code_challenge_method=S256\` and \`state\`; (5) redeem the code at \`POST {auth_url}${OAUTH_PATHS.token}\` with \`code_verifier\`; access tokens live an hour, renew them with the \`refresh_token\` grant; (6) revoke at \`POST {auth_url}${OAUTH_PATHS.revoke}\`. Tokens are ES256 JWTs; the public keys are at \`{auth_url}/org/{org}/jwks.json\`. The \`oauth\` operations below are served by the built-in authorization server.`,
      ].join('\n'),
    },
    servers: [{ url: addresses.renderUrl, description: '{render_url}' }],
    tags: [
      { name: 'render', description: 'Renders, with a render key (`{render_url}`).' },
      { name: 'designs', description: 'The signed-in user\'s designs and their render configuration (bearer, `{base_url}`).' },
      { name: 'exports', description: 'Exports of the signed-in user\'s designs, published or draft, at once or as background jobs; each is one render against the quota, refunded when it fails (bearer, `{base_url}`).' },
      { name: 'analytics', description: 'Render usage over time (bearer, `{base_url}`).' },
      { name: 'settings', description: 'Render API keys and the webhook signing secret (bearer, `{base_url}`).' },
      { name: 'oauth', description: 'Discovery and the built-in OAuth 2.1 authorization server (`{auth_url}`).' },
    ],
    components: {
      securitySchemes: {
        renderKeyHeader: { type: 'apiKey', in: 'header', name: 'dma-api-key' },
        renderKeyQuery: { type: 'apiKey', in: 'query', name: 'dma-api-key' },
        renderKeyQueryKey: { type: 'apiKey', in: 'query', name: 'key' },
        renderKeyQueryApiKey: { type: 'apiKey', in: 'query', name: 'api-key' },
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 authorization code with PKCE (S256 only; required). Send `resource={base_url}` (RFC 8707) when authorizing and redeeming. Access tokens live an hour; refresh tokens rotate. Authorization-server metadata: `{auth_url}/.well-known/oauth-authorization-server/org/{org}`.',
          flows: {
            authorizationCode: {
              authorizationUrl: authorizeUrl,
              tokenUrl,
              refreshUrl: tokenUrl,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
      },
      schemas: RESPONSE_SCHEMAS,
    },
    paths: {
      '/v1/{design_id}': {
        get: {
          operationId: 'renderDesign',
          tags: ['render'],
          summary: 'Render a design (overrides in the query)',
          description: 'A GET render URL used in an image tag counts as a render.',
          security: [{ renderKeyHeader: [] }, { renderKeyQuery: [] }, { renderKeyQueryKey: [] }, { renderKeyQueryApiKey: [] }],
          parameters: [designId, ...renderQueryParameters(), overridesParam],
          responses: renderResponses,
        },
        post: {
          operationId: 'renderDesignWithBody',
          tags: ['render'],
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
          tags: ['render'],
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
          tags: ['render'],
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
      '/designs/v2': {
        servers: base,
        get: {
          operationId: 'listDesigns',
          tags: ['designs'],
          summary: 'List your designs, most recently updated first',
          security: bearer('read'),
          parameters: queryParameters(ListDesignsParamsSchema),
          responses: {
            '200': jsonResponse('A page of designs.', 'PaginatedDesigns'),
            '400': errorBody('`$page` or `$limit` is not a whole number in range (or given twice); `message` names it.'),
            ...bearerErrors,
          },
        },
      },
      '/designs/v2/{id}': {
        servers: base,
        get: {
          operationId: 'getDesign',
          tags: ['designs'],
          summary: 'Get one of your designs',
          description: 'The design record (same shape as the MCP `get_design` tool): the published document in `design` (null while there is only a draft) and the unpublished `draft` when there is one.',
          security: bearer('read'),
          parameters: [designPathId],
          responses: {
            '200': jsonResponse('The design.', 'Design'),
            ...bearerErrors,
            '404': errorBody('No design of yours has this id (another account\'s design is not found either).'),
          },
        },
      },
      '/designs/v2/{id}/config': {
        servers: base,
        get: {
          operationId: 'getRenderConfig',
          tags: ['designs'],
          summary: 'Get the render configuration of one of your designs',
          description: 'The render URL, the overridable dynamic fields (`data.pure` nested, `data.flatten` as the dot-path keys renders accept) and the sizes (`master` first). Describes the published version, or the draft of a design never published (whose render URL answers 404 until it is).',
          security: bearer('read'),
          parameters: [designPathId],
          responses: {
            '200': jsonResponse('The render configuration.', 'RenderConfig'),
            '400': errorBody('The stored design document is invalid.'),
            ...bearerErrors,
            '404': errorBody('No design of yours has this id.'),
          },
        },
      },
      '/designs/v2/{id}/export': {
        servers: base,
        post: {
          operationId: 'exportDesign',
          tags: ['exports'],
          summary: 'Export one of your designs as image bytes',
          description: `${exportDescription} Nothing is stored.`,
          security: bearer('write'),
          parameters: [designPathId, ...exportQueryParameters(false), exportOverridesParam],
          requestBody: exportBody,
          responses: {
            '200': {
              description: 'The image.',
              headers: { ...exportHeaders, 'X-Litho-Variation': { description: 'The size rendered: `master` or the variation id.', schema: { type: 'string' } }, 'Content-Disposition': { description: '`attachment; filename="<id>.<ext>"`.', schema: { type: 'string' } } },
              content: {
                'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
                'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
                'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
                'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
              },
            },
            ...exportErrors,
          },
        },
      },
      '/designs/v2/{id}/export/driver-upload': {
        servers: base,
        post: {
          operationId: 'exportDesignToUpload',
          tags: ['exports'],
          summary: 'Export one of your designs to a public stored file',
          description: `${exportDescription} The file is stored publicly; its URL needs no credentials.`,
          security: bearer('write'),
          parameters: [designPathId, ...exportQueryParameters(false), exportOverridesParam],
          requestBody: exportBody,
          responses: {
            '200': jsonResponse('The stored export.', 'ExportUploadResult', exportHeaders),
            ...exportErrors,
            '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: ${STORAGE_FULL}` },
          },
        },
      },
      '/designs/v2/{id}/export/signed-url': {
        servers: base,
        post: {
          operationId: 'exportDesignToSignedUrl',
          tags: ['exports'],
          summary: 'Export one of your designs to a private stored file behind an expiring signed URL',
          description: `${exportDescription} The file is stored privately; the signed URL works until \`expiresAt\`.`,
          security: bearer('write'),
          parameters: [designPathId, ...exportQueryParameters(true), exportOverridesParam],
          requestBody: exportBody,
          responses: {
            '200': jsonResponse('The stored export and its signed URL.', 'ExportSignedResult', exportHeaders),
            ...exportErrors,
            '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: ${STORAGE_FULL}` },
          },
        },
      },
      '/designs/v2/{id}/export/jobs': {
        servers: base,
        post: {
          operationId: 'queueExportJob',
          tags: ['exports'],
          summary: 'Queue an export of one of your designs as a background job',
          description: `The export runs in the background and is stored like \`driver-upload\` (\`delivery=hosted\`) or \`signed-url\` (\`delivery=signed\`); poll \`pollUrl\` for the result, or pass \`webhookUrl\` to be called when it finishes. The request is checked at once (design, parameters, overrides, variation: a 400 or 404 costs nothing); then one render is consumed and the job is queued. A job that finally fails is refunded once; transient failures are retried, at most ${EXPORT_JOB_MAX_RUNS} runs. Parameters may also be given in the JSON body (the query wins). Overrides: dot-paths in the query, then the JSON body (dot-paths or nested; the body wins), whose keys other than the reserved ones (${EXPORT_RESERVED_KEYS.map((k) => `\`${k}\``).join(', ')}). Keys that name nothing are ignored without a report. The design (published, or the draft with \`draft\`) is read again when the job runs. Mounted when the app has export jobs (\`litho serve\` has).`,
          security: bearer('write'),
          parameters: [
            designPathId,
            { name: 'delivery', in: 'query', required: false, description: 'Required, in the query or the body: `hosted` (a public URL) or `signed` (an expiring signed URL).', schema: { enum: ['hosted', 'signed'] } },
            ...exportQueryParameters(true),
            { name: 'webhookUrl', in: 'query', required: false, description: 'Usually in the body: an https URL to POST the finished job to, signed (Standard Webhooks; docs/webhooks.md).', schema: { type: 'string', format: 'uri', maxLength: 2048 } },
            exportOverridesParam,
          ],
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: true,
                  description: 'Overrides (dot-paths or nested) and the parameters `delivery`, `format`, `quality`, `variation`, `draft`, `expiresIn` and `webhookUrl`.',
                  properties: {
                    delivery: { enum: ['hosted', 'signed'] },
                    webhookUrl: { type: 'string', format: 'uri', maxLength: 2048 },
                  },
                },
              },
            },
          },
          responses: {
            '202': jsonResponse('Queued.', 'ExportJobAck', { Location: { description: 'The `pollUrl`.', schema: { type: 'string' } }, ...quotaResponseHeaders }),
            '400': errorBody('`delivery` is missing or not `hosted`/`signed`, `expiresIn` is given with `hosted`, another parameter or the body is invalid (`message` names it), `webhookUrl` is refused (not https, credentials, a blocked address, or webhooks not configured), an override value is invalid for its field, or the variation is unknown (`available` lists the valid ones).'),
            ...bearerErrors,
            '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: the plan's storage of rendered files is already full (\`ERR_STORAGE_QUOTA\`, \`data.usage\`/\`data.limit\` in bytes; nothing metered). A job whose file no longer fits when it finishes fails with that code (refunded).` },
            '404': errorBody('No design of yours has this id, or it was never published and `draft` is not true.'),
            '413': exportErrors['413'],
            '429': commonErrors['429'],
            '503': errorBody('The job could not be stored or queued (refunded); retry shortly.'),
          },
        },
      },
      '/analytics/api': {
        servers: base,
        get: {
          operationId: 'getUsage',
          tags: ['analytics'],
          summary: 'Your render counts over time',
          description: `Historical usage, not remaining quota: renders (net of refunds) per UTC bucket over \`[start, end)\`, every bucket included. Defaults: the last ${DEFAULT_USAGE_DAYS} days, by day. At most ${MAX_USAGE_BUCKETS} buckets per request.`,
          security: bearer('read'),
          parameters: queryParameters(UsageParamsSchema),
          responses: {
            '200': jsonResponse('The buckets and their total.', 'UsageResponse'),
            '400': errorBody('`start` or `end` is not an ISO 8601 date-time, `start` is not before `end`, or `groupBy` is unknown or too fine for the range; `message` names the parameter.'),
            ...bearerErrors,
          },
        },
      },
      '/analytics/exports/{exportId}': {
        servers: base,
        get: {
          operationId: 'getExportJob',
          tags: ['exports'],
          summary: 'Poll one of your export jobs',
          description: 'The job record: its `status` and, once it succeeded, the stored file\'s `url`; once it failed, `error`. Answered with `Cache-Control: no-store`. Poll every few seconds, or use a webhook.',
          security: bearer('read'),
          parameters: [{ name: 'exportId', in: 'path', required: true, description: 'The `exportId` of the 202 answer.', schema: { type: 'string' } }],
          responses: {
            '200': jsonResponse('The job.', 'ExportJob'),
            ...bearerErrors,
            '404': errorBody('No export job of yours has this id (another account\'s job is not found either).'),
          },
        },
      },
      '/settings/api-keys': {
        servers: base,
        get: {
          operationId: 'listApiKeys',
          tags: ['settings'],
          summary: 'List your render API keys, newest first, a page at a time',
          description: 'Never shows a key\'s secret or its hash; `prefix` helps recognise a key. Paged like `/designs/v2`: `$page` from 1, `totalPages` and `hasNextPage` in the body.',
          security: bearer('read'),
          parameters: queryParameters(ListKeysParamsSchema),
          responses: {
            '200': jsonResponse('The keys.', 'ApiKeyList'),
            '400': errorBody('`$page` is not a whole number ≥ 1, or `$limit` not one from 1 to 100 (or either is given twice).'),
            ...bearerErrors,
          },
        },
        post: {
          operationId: 'createApiKey',
          tags: ['settings'],
          summary: 'Create a render API key',
          description: `The answer carries the secret (\`key\`) once; it is never shown again. An account holds at most ${MAX_API_KEYS} keys.`,
          security: bearer('write'),
          requestBody: { required: false, content: { 'application/json': { schema: ref('CreateApiKeyRequest') } } },
          responses: {
            '201': jsonResponse('The new key, with its secret.', 'CreatedApiKey'),
            '400': errorBody(`The body is not a JSON object, \`name\` is invalid, or the account already holds ${MAX_API_KEYS} keys.`),
            ...bearerErrors,
            '413': errorBody('The body is larger than 64 KiB.'),
          },
        },
      },
      '/settings/api-keys/{id}': {
        servers: base,
        delete: {
          operationId: 'deleteApiKey',
          tags: ['settings'],
          summary: 'Delete a render API key',
          description: 'The key stops authenticating renders at once and is no longer listed.',
          security: bearer('write'),
          parameters: [pathId("The key's `_id` (from the key list).")],
          responses: {
            '200': jsonResponse('Deleted.', 'DeletedApiKey'),
            ...bearerErrors,
            '404': errorBody('No key of yours has this id.'),
          },
        },
      },
      '/settings/webhook-secret': {
        servers: base,
        get: {
          operationId: 'getWebhookSecret',
          tags: ['settings'],
          summary: 'Get your webhook signing secret',
          description: 'The secret that signs your completion webhooks; created on first use. Needs `write`, reading included: whoever holds it can forge webhooks. Answered with `Cache-Control: no-store`. Mounted with export jobs that have webhooks (`litho serve` has).',
          security: bearer('write'),
          responses: {
            '200': jsonResponse('The secret.', 'WebhookSecret'),
            ...bearerErrors,
          },
        },
      },
      '/settings/webhook-secret/rotate': {
        servers: base,
        post: {
          operationId: 'rotateWebhookSecret',
          tags: ['settings'],
          summary: 'Replace your webhook signing secret',
          description: 'A new secret replaces the old one at once, with no overlap: every delivery attempt from now on, retries of older events included, is signed with the new one. Answered with `Cache-Control: no-store`. Mounted with export jobs that have webhooks (`litho serve` has).',
          security: bearer('write'),
          responses: {
            '200': jsonResponse('The new secret.', 'WebhookSecret'),
            ...bearerErrors,
          },
        },
      },
      '/.well-known/oauth-protected-resource': protectedResource('the API, `{base_url}`', 'getProtectedResourceMetadata'),
      '/.well-known/oauth-protected-resource/api/mcp': protectedResource('the MCP endpoint, `{base_url}/api/mcp`', 'getMcpProtectedResourceMetadata'),
      '/.well-known/oauth-authorization-server/org/{org}': {
        servers: auth,
        get: {
          operationId: 'getAuthorizationServerMetadata',
          tags: ['oauth'],
          summary: 'Authorization-server metadata of an org (RFC 8414)',
          security: [],
          parameters: [org],
          responses: {
            '200': jsonResponse('The metadata (cacheable for 5 minutes).', 'AuthorizationServerMetadata'),
            '404': oauthErrorBody('No such org.'),
          },
        },
      },
      '/org/{org}/jwks.json': {
        servers: auth,
        get: {
          operationId: 'getJwks',
          tags: ['oauth'],
          summary: 'The public keys that sign the access tokens of an org',
          security: [],
          parameters: [org],
          responses: {
            '200': jsonResponse('The JWK set (cacheable for 5 minutes).', 'Jwks'),
            '404': oauthErrorBody('No such org.'),
          },
        },
      },
      [OAUTH_PATHS.register]: {
        servers: auth,
        post: {
          operationId: 'registerClient',
          tags: ['oauth'],
          summary: 'Register a client (RFC 7591)',
          description: 'Dynamic client registration, open to anyone (rate-limited per address). A client unused for 90 days (by default) is forgotten; on `invalid_client` from the token endpoint, register again.',
          security: [],
          parameters: [orgQuery('The org to register with; may be left out when the server has one default org.')],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ClientRegistrationRequest') } } },
          responses: {
            '201': jsonResponse('The client: its `client_id`, and `client_secret` for a confidential client.', 'ClientRegistrationResponse'),
            '400': oauthErrorBody('`invalid_redirect_uri` or `invalid_client_metadata` (including a body that is not JSON).'),
            '404': oauthErrorBody('Unknown org.'),
            '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
            '429': oauthErrorBody('Too many registrations from this address; retry in an hour.', { 'Retry-After': { schema: { type: 'integer' } } }),
          },
        },
      },
      [OAUTH_PATHS.authorize]: {
        servers: auth,
        get: {
          operationId: 'authorize',
          tags: ['oauth'],
          summary: 'Start an authorization (a page for the user\'s browser)',
          description: 'Shows the sign-in page (email and password), then the consent page naming the client, its redirect host and the scopes; their forms POST back here. Allow redirects to `redirect_uri` with `code`, `state` and `iss`; Deny with `error=access_denied`. Until the client and redirect URI are known good, every error is an error page. After that, errors of a client configured by the operator are redirects with `error`; errors of a dynamically registered client (or a metadata-document client) are an error page with a link back that the user may follow, never an automatic redirect (RFC 9700 §4.11.2). The sign-in form is limited per (email, address), address and email (429 with `Retry-After`) and answers 503 with `Retry-After` when password checking is busy. No CORS: for top-level navigation only.',
          security: [],
          parameters: [
            { name: 'client_id', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'redirect_uri', in: 'query', required: false, description: 'One of the registered ones (loopback http: any port); required when the client has several.', schema: { type: 'string' } },
            { name: 'response_type', in: 'query', required: true, schema: { const: 'code' } },
            { name: 'code_challenge', in: 'query', required: true, description: 'BASE64URL(SHA-256(code_verifier)), 43 characters.', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
            { name: 'code_challenge_method', in: 'query', required: true, schema: { const: 'S256' } },
            { name: 'scope', in: 'query', required: false, description: 'Space separated; default: what the client may ask for.', schema: { type: 'string', examples: ['read write'] } },
            { name: 'resource', in: 'query', required: false, description: 'The resource the token is for (RFC 8707): `{base_url}` (the default) or `{base_url}/api/mcp`.', schema: { type: 'string', format: 'uri' } },
            { name: 'state', in: 'query', required: false, description: 'Returned unchanged on the redirect.', schema: { type: 'string' } },
            { name: 'org', in: 'query', required: false, description: 'Must match the client\'s org when given.', schema: { type: 'string' } },
            { name: 'prompt', in: 'query', required: false, description: '`none`: never show a sign-in or consent page; a configured client gets a redirect with `login_required` or `consent_required`, a dynamically registered one an error page.', schema: { const: 'none' } },
          ],
          responses: {
            '200': { description: 'The sign-in or consent page.', content: { 'text/html': {} } },
            '302': { description: 'Back to `redirect_uri` with `code` (or `error`, `error_description`), `state` and `iss`.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
            '400': { description: 'Unknown client, unregistered `redirect_uri` or unknown org, or any error of a dynamically registered client: an error page.', content: { 'text/html': {} } },
          },
        },
      },
      [OAUTH_PATHS.token]: {
        servers: auth,
        post: {
          operationId: 'token',
          tags: ['oauth'],
          summary: 'Redeem a code or a refresh token',
          description: 'Answers with `Cache-Control: no-store`. Reusing a code revokes the tokens it issued.',
          security: [],
          parameters: [orgQuery('Optional; when given, it must be the client\'s org.')],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
          responses: {
            '200': jsonResponse('The tokens.', 'TokenResponse'),
            '400': oauthErrorBody('`invalid_request`, `invalid_grant` (code unknown, used, expired, of another client, wrong `redirect_uri` or `code_verifier`; refresh token revoked or reused), `invalid_scope`, `invalid_target`, `unauthorized_client` or `unsupported_grant_type`.'),
            '401': oauthErrorBody('`invalid_client`: unknown client id (register again) or failed client authentication.'),
            '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
          },
        },
      },
      [OAUTH_PATHS.revoke]: {
        servers: auth,
        post: {
          operationId: 'revokeToken',
          tags: ['oauth'],
          summary: 'Revoke a token (RFC 7009)',
          description: 'Revokes the whole sign-in the token belongs to: its refresh tokens and, at once, its access tokens (send the refresh token to sign a client out for good). A token that is unknown or of another client is not revoked, and the answer is the same.',
          security: [],
          parameters: [orgQuery('Optional.')],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('RevocationRequest') } } },
          responses: {
            '200': { description: 'Done (or nothing to do).' },
            '400': oauthErrorBody('`invalid_request`: no `token`, or not a form.'),
            '401': oauthErrorBody('`invalid_client`.'),
            '413': oauthErrorBody('`invalid_request`: the body is larger than 64 KiB (counted while it streams; the rest is not read).'),
          },
        },
      },
      [OAUTH_PATHS.logout]: {
        servers: auth,
        get: {
          operationId: 'signOutPage',
          tags: ['oauth'],
          summary: 'Sign out of the sign-in pages (a page for the user\'s browser)',
          description: 'Shows a confirmation form (a GET never signs out). Its POST, CSRF-checked, deletes the session and its cookie, then returns to `post_logout_redirect_uri` when it is registered for `client_id` (with `state`), or shows a page. The consent page links here ("Not you? Sign out"). Access and refresh tokens already issued stay valid: revoke them at the revocation endpoint.',
          security: [],
          parameters: [
            { name: 'client_id', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'post_logout_redirect_uri', in: 'query', required: false, description: 'A redirect URI registered for `client_id`; any other is refused with a page.', schema: { type: 'string', format: 'uri' } },
            { name: 'state', in: 'query', required: false, description: 'Returned on the redirect.', schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'The sign-out form; after the POST, the signed-out page (or the sign-in page of the pending request it came from).', content: { 'text/html': {} } },
            '302': { description: 'After the POST: back to `post_logout_redirect_uri`.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
            '403': { description: 'The POST without its CSRF token: an error page.', content: { 'text/html': {} } },
          },
        },
      },
    },
  }
}
