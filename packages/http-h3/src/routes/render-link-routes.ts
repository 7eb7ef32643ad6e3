/**
 * The settings route of signed render links (docs/signed-render-links.md): `POST
 * /settings/api-keys/:id/link-secret` gives a key a new link secret (bearer, `write`). Links
 * themselves are checked on `GET /v1/:design_id` (app/render-link.ts).
 *
 * @module routes/render-link-routes
 */
import { rotateRenderLinkSecret } from '@litho/core'
import * as z from 'zod'
import { LinkSecretSchema } from '../openapi/components.js'
import { bearerErrors, errorBody, jsonResponse, STORAGE_FULL, UNKNOWN_PLAN } from '../openapi/responses.js'
import type { AppContext } from './app-context.js'
import { defineRoute, type OpenApiObject } from './define-route.js'
import { hasVerifier } from './design-routes.js'

/** The link parameters of `GET /v1/:design_id`, documented beside the overrides. */
export const RENDER_LINK_QUERY: readonly OpenApiObject[] = [
  {
    name: 'sig',
    in: 'query',
    required: false,
    description:
      'Makes the request a [signed render link](./signed-render-links.md): the HMAC-SHA256 (base64url, 43 characters) of the canonical path and query with the key’s link secret. No render key then. With `sig`, `exp` and `kid` are link parameters; without it, ordinary override names.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  },
  { name: 'kid', in: 'query', required: false, description: 'Signed links: the id of the render key whose link secret signed the link; the render is metered to its owner.', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } },
  { name: 'exp', in: 'query', required: false, description: 'Signed links: when the link stops working, in unix seconds (optional; at most 365 days ahead unless the server says otherwise).', schema: { type: 'integer', minimum: 0 } },
]

/** The 403 of `GET /v1/:design_id`: a full storage, or a refused signed link. */
export const RENDER_LINK_403 = errorBody(
  `${STORAGE_FULL} A signed link that is refused is a 403 too, \`code\` \`ERR_BAD_SIGNATURE\` with a \`reason\`: \`bad_signature\`, \`expired\`, \`exp_too_far\`, \`unknown_key\` (revoked or never existed), \`key_inactive\`, \`no_link_secret\` or \`links_disabled\`; a malformed link (\`exp\`, \`kid\`, \`sig\`), a render key beside it or a stored delivery is a 400. Or: ${UNKNOWN_PLAN}`,
)

/** Mounted with bearer tokens and a render-link master key (`litho serve` has both). */
const hasRenderLinks = (app: AppContext) => hasVerifier(app) && app.options.renderLinks !== undefined

/** `POST /settings/api-keys/:id/link-secret`: a new link secret, shown once. */
export const rotateLinkSecretRoute = defineRoute({
  method: 'POST',
  path: '/settings/api-keys/:id/link-secret',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasRenderLinks,
  operationId: 'rotateLinkSecret',
  tags: ['settings'],
  summary: "Replace a render key's link secret",
  description:
    'Gives the key a new link secret for [signed render links](./signed-render-links.md) and returns it, once (answered with `Cache-Control: no-store`). Every link signed with the previous secret stops working at once; the key itself keeps working. Also how a key created before signed links existed gets its first. Mounted when the server has a render-link master key (`litho serve` has).',
  params: z.object({ id: z.string().meta({ description: "The key's `_id` (from the key list)." }) }),
  responses: {
    '200': jsonResponse('The new link secret.', LinkSecretSchema),
    ...bearerErrors,
    '404': errorBody('No key of yours has this id.'),
  },
  handler: ({ app, account, param }) => rotateRenderLinkSecret({ accounts: app.options.accounts, ...(app.options.renderLinks ? { renderLinks: app.options.renderLinks } : {}) }, { account, id: param('id') }),
})
