/**
 * Authoring the signed-in user's designs over HTTP (docs/http-reference.md, bearer `write`): create,
 * change the draft, publish, delete. The same core operations as the MCP tools `create_design`,
 * `update_design`, `publish_design` and `delete_design` (service/design-writes), so both give
 * the same answers and the same errors (a document problem names its JSON path).
 *
 * @module routes/design-write-routes
 */
import { CreateDesignInputSchema, DesignResourceSchema, MAX_DESIGN_NAME_LENGTH, PLANS, createDesign, deleteDesign, invalidRequest, publishDesign, updateDesign } from '@litho/core'
import { json } from '../app/errors.js'
import { DeletedDesignSchema, UpdateDesignBodySchema } from '../openapi/components.js'
import { bearerErrors, errorBody, jsonResponse } from '../openapi/responses.js'
import { defineRoute } from './define-route.js'
import { designIdParams, hasVerifier } from './design-routes.js'

/** A small card, the example of the request bodies. */
const EXAMPLE_DOCUMENT = {
  version: 2,
  width: 1080,
  height: 1080,
  background: '#0f172a',
  components: [{ type: 'text', key: 'title', x: 80, y: 80, width: 920, height: 200, text: 'Summer sale', fontSize: 96, color: '#ffffff', dynamic: ['text'] }],
}

/**
 * The body as a JSON object with only `allowed` fields: anything else is a 400 naming the field
 * (a typo such as `documnet` must not be silently ignored).
 */
export function bodyObject(body: unknown, allowed: readonly string[], example: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest([{ path: 'body', message: `expected a JSON object like ${example}` }])
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
  if (unknown.length > 0) throw invalidRequest(unknown.map((key) => ({ path: key, message: `unknown field; expected one of ${allowed.join(', ')}` })))
  return body as Record<string, unknown>
}

/** The Design resource of the answers' examples. */
const EXAMPLE_DESIGN = { _id: 'd_3Jx9Qm2LpZ7a', name: 'Summer sale card', renderCode: 'k3Jx9Qm2LpZ7aK4tWv8R1A', createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z', design: null, draft: EXAMPLE_DOCUMENT }

const documentErrors = '`name`, `document`, `patch` or `publish` is invalid, or the body has another field; `issues` lists each problem with its JSON path (`document.components[1].fontSize`, `patch.components.titel`).'

/** `POST /designs/v2`: a new design (201). */
export const createDesignRoute = defineRoute({
  method: 'POST',
  path: '/designs/v2',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  body: { kind: 'json' },
  when: hasVerifier,
  operationId: 'createDesign',
  tags: ['designs'],
  summary: 'Create a design',
  description: `Stores a new design from a name (1-${MAX_DESIGN_NAME_LENGTH} characters) and a whole document (version 2; docs/design-format.md): as the draft, or published at once with \`publish: true\`. Nothing is stored when the document is invalid. The MCP tool \`create_design\` does the same. Plans limit how many designs an account holds (${PLANS.free.templates} on Free).`,
  requestBody: {
    required: true,
    content: { 'application/json': { schema: CreateDesignInputSchema, example: { name: 'Summer sale card', document: EXAMPLE_DOCUMENT, publish: false } } },
  },
  responses: {
    '201': jsonResponse('The new design (same shape as `GET /designs/v2/{id}`): `design` null and the document in `draft`, or published with no draft.', DesignResourceSchema, undefined, EXAMPLE_DESIGN),
    '400': errorBody(documentErrors),
    ...bearerErrors,
    '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: the plan allows no more designs (\`ERR_TEMPLATE_LIMIT\`, \`message\` says how many): delete one first.` },
    '413': errorBody('The body is larger than the limit (2 MiB by default).'),
  },
  async handler({ app, account, body }) {
    const { name, document, publish } = bodyObject(body, ['name', 'document', 'publish'], '{"name":"Card","document":{"version":2,…}}')
    return json(await createDesign(app.services, { account, name: name as string, document, publish: publish as boolean | undefined }), 201)
  },
})

/** `PATCH /designs/v2/:id`: rename, change the draft, publish. */
export const updateDesignRoute = defineRoute({
  method: 'PATCH',
  path: '/designs/v2/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  body: { kind: 'json' },
  when: hasVerifier,
  operationId: 'updateDesign',
  tags: ['designs'],
  summary: "Change one of your designs: its name, its draft, and publish",
  description:
    "As the MCP tool `update_design`: `document` replaces the draft, `patch` changes it (component fields by key, components added or removed, top-level fields), `name` renames at once. The published version (what renders use) changes only with `publish: true` (or `POST /designs/v2/{id}/publish`). Nothing is stored unless the result is valid. Concurrent changes: the last write wins.",
  params: designIdParams,
  requestBody: {
    required: true,
    content: { 'application/json': { schema: UpdateDesignBodySchema, example: { patch: { components: { title: { text: 'Winter sale' } } }, publish: true } } },
  },
  responses: {
    '200': jsonResponse('The design as it is now.', DesignResourceSchema, undefined, { ...EXAMPLE_DESIGN, updatedAt: '2026-11-23T10:05:00.000Z', design: EXAMPLE_DOCUMENT, draft: undefined }),
    '400': errorBody(`${documentErrors} Or: both \`document\` and \`patch\`, or nothing to change.`),
    ...bearerErrors,
    '404': errorBody("No design of yours has this id (another account's design is not found either)."),
    '413': errorBody('The body is larger than the limit (2 MiB by default).'),
  },
  async handler({ app, account, body, param }) {
    const input = bodyObject(body, ['name', 'document', 'patch', 'publish'], '{"patch":{"components":{"title":{"text":"Hi"}}}}')
    const id = param('id')
    const { name, document, patch, publish } = input as { name?: string; document?: unknown; patch?: Parameters<typeof updateDesign>[1]['patch']; publish?: unknown }
    if (publish !== undefined && typeof publish !== 'boolean') throw invalidRequest([{ path: 'publish', message: `expected true or false, received ${JSON.stringify(publish)}` }])
    // Publish the current draft: the rename first (if any), then the publication.
    if (publish === true && document === undefined && patch === undefined) {
      if (name !== undefined) await updateDesign(app.services, { account, id, name })
      return publishDesign(app.services, { account, id })
    }
    return updateDesign(app.services, { account, id, name, document, patch, publish })
  },
})

/** `POST /designs/v2/:id/publish`. */
export const publishDesignRoute = defineRoute({
  method: 'POST',
  path: '/designs/v2/:id/publish',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'publishDesign',
  tags: ['designs'],
  summary: 'Publish the draft of one of your designs',
  description: 'The draft becomes the published version (what `{render_url}/v1/{renderCode}` renders) and is cleared, as the MCP tool `publish_design`. A design without a draft is answered unchanged (publishing twice is harmless). No body.',
  params: designIdParams,
  responses: {
    '200': jsonResponse('The design, published, without a draft.', DesignResourceSchema),
    '400': errorBody('The stored draft is invalid (`issues` name the paths, `draft.…`).'),
    ...bearerErrors,
    '404': errorBody('No design of yours has this id.'),
  },
  handler: ({ app, account, param }) => publishDesign(app.services, { account, id: param('id') }),
})

/** `DELETE /designs/v2/:id`. */
export const deleteDesignRoute = defineRoute({
  method: 'DELETE',
  path: '/designs/v2/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'deleteDesign',
  tags: ['designs'],
  summary: 'Delete one of your designs',
  description: 'Deletes the design, published version and draft, as the MCP tool `delete_design`: its render URL stops working at once and it no longer counts against the plan. Cannot be undone.',
  params: designIdParams,
  responses: {
    '200': jsonResponse('Deleted.', DeletedDesignSchema, undefined, { success: true, _id: 'd_3Jx9Qm2LpZ7a' }),
    ...bearerErrors,
    '404': errorBody('No design of yours has this id (or it is already deleted).'),
  },
  handler: ({ app, account, param }) => deleteDesign(app.services, { account, id: param('id') }),
})
