/**
 * The parts of operations that many routes share: error bodies, the quota headers, the 401 and
 * 403 of bearer routes, the common errors of metered routes.
 *
 * @module openapi/responses
 */
import type { SCOPES } from '@litho/auth-adapters'
import type { ZodType } from 'zod'
import { ErrorSchema, QuotaErrorSchema } from './components.js'
import { OAuthErrorSchema } from './oauth-components.js'
import type { JsonSchema } from './schema.js'

/** A JSON response of `schema` (a zod schema: a component is referred to, see `defineComponents`), with an `example` body when given. */
export const jsonResponse = (description: string, schema: ZodType, headers?: JsonSchema, example?: unknown) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
})

/** A JSON error response (`Error` body) with `description`. */
export const errorBody = (description: string) => jsonResponse(description, ErrorSchema)

/** An OAuth error response (`OAuthError` body). */
export const oauthErrorBody = (description: string, headers?: JsonSchema) => jsonResponse(description, OAuthErrorSchema, headers)

/** The quota headers of every metered response. */
export const quotaResponseHeaders = {
  'X-Quota-Limit': { description: "Renders a month on the account's plan.", schema: { type: 'integer' } },
  'X-Quota-Remaining': { description: 'Renders left in this window.', schema: { type: 'integer' } },
  'X-Quota-Reset': { description: 'When the window resets (ISO 8601).', schema: { type: 'string', format: 'date-time' } },
}

/** The errors of every metered route: bad input, credentials, quota, a full render queue. */
export const commonErrors = {
  '400': errorBody('A parameter or the body is invalid; `message` names it.'),
  '401': errorBody('Missing, unknown or deactivated render key.'),
  '429': {
    description: 'Render quota used up; retry after `data.resetAt`.',
    headers: { 'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } }, ...quotaResponseHeaders },
    content: { 'application/json': { schema: QuotaErrorSchema } },
  },
  '503': {
    description: 'The render queue is full (or storage is unavailable); retry shortly.',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: ErrorSchema } },
  },
}

/** The 403 of a stored delivery past the plan's storage (docs/quotas-and-plans.md). */
export const STORAGE_FULL = "The plan's storage of rendered files is full (`code` `ERR_STORAGE_QUOTA`, `data.usage` and `data.limit` in bytes): nothing was stored and the render was refunded. Hosted and signed deliveries only; streamed renders still work."

/** The `WWW-Authenticate` header of a bearer 401 or 403. */
const challenge = { description: 'RFC 6750 challenge naming the protected-resource metadata (`resource_metadata`) and, for 403, the scopes needed.', schema: { type: 'string' } }

/** The 401 and 403 of a bearer endpoint. */
export const bearerErrors = {
  '401': { ...errorBody('Missing, malformed, invalid, expired or revoked access token, or one issued for another resource. `WWW-Authenticate` says which.'), headers: { 'WWW-Authenticate': challenge } },
  '403': { ...errorBody('The token lacks the scope this operation needs (`insufficient_scope`).'), headers: { 'WWW-Authenticate': challenge } },
}

/** The scopes of the built-in authorization server, as OpenAPI describes them. */
export const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  read: 'Read designs and render configs, preview designs (not metered), read usage, export jobs, webhook deliveries and the list of API keys.',
  write: 'Create, change, publish and delete designs, export designs (each export is a metered render), create and delete render API keys, and read and rotate the webhook signing secret.',
}
