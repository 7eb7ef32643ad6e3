/**
 * Previews of the signed-in user's designs over HTTP (docs/http-reference.md, bearer `read`): the
 * MCP tool `render_preview`'s operation (service/preview), answered as JSON with the PNG as a
 * data URI and the box of every component, so a visual editor can draw selections over it.
 *
 * @module routes/preview-routes
 */
import { DEFAULT_PREVIEW_MAX_SIDE, MIN_PREVIEW_MAX_SIDE, previewDesign } from '@litho/core'
import { DesignPreviewSchema, PreviewDesignBodySchema } from '../openapi/components.js'
import { bearerErrors, commonErrors, errorBody, jsonResponse } from '../openapi/responses.js'
import { defineRoute } from './define-route.js'
import { bodyObject } from './design-write-routes.js'
import { designIdParams, hasVerifier } from './design-routes.js'

const PREVIEW_FIELDS = ['source', 'overrides', 'variation', 'maxSide', 'document'] as const

/** `POST /designs/v2/:id/preview`. */
export const previewDesignRoute = defineRoute({
  method: 'POST',
  path: '/designs/v2/:id/preview',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  body: { kind: 'json' },
  when: hasVerifier,
  operationId: 'previewDesign',
  tags: ['designs'],
  summary: 'Preview one of your designs, with the box of every component',
  description: `As the MCP tool \`render_preview\`: the draft by default (else the published version), or \`source\`, with optional overrides and variation, rendered to a PNG whose long side is at most \`maxSide\` (${MIN_PREVIEW_MAX_SIDE}-4096, default ${DEFAULT_PREVIEW_MAX_SIDE}). \`document\` renders an unsaved document instead (a visual editor's live draft), validated like \`PATCH\`'s and never stored. \`layout\` gives each visible component's box in pixels of the rendered size (multiply by \`scale\` for the image), where the layout engine put it (auto-layout groups included), before rotation. Previews by the owner are not metered; they wait in the render queue like renders (503 when it is full). An image that cannot be loaded is left out with an \`image_failed\` warning. Answered with \`Cache-Control: no-store\`.`,
  params: designIdParams,
  requestBody: {
    required: false,
    content: { 'application/json': { schema: PreviewDesignBodySchema, example: { overrides: { 'title.text': 'Hello' }, variation: 'master', maxSide: 512 } } },
  },
  responses: {
    '200': jsonResponse('The preview, its warnings and its layout.', DesignPreviewSchema, undefined, {
      image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA…',
      width: 512,
      height: 512,
      scale: 0.4741,
      source: 'draft',
      variation: 'master',
      warnings: [{ code: 'override_ignored', key: 'title.x', reason: 'not_dynamic', message: '"x" is not a dynamic field of "title"; its dynamic fields are text' }],
      summary: 'The 1 override was not applied (title.x: see the warnings): this is the draft version, variation master, 512x512 px, as stored. Valid keys: title.text.',
      layout: {
        width: 1080,
        height: 1080,
        components: [
          { key: 'title', type: 'text', x: 80, y: 80, width: 920, height: 200 },
          { key: 'price-tag', type: 'group', x: 100, y: 877, width: 400, height: 96 },
          { key: 'price', type: 'text', x: 132, y: 895, width: 170, height: 60, parent: 'price-tag' },
        ],
      },
    }),
    '400': errorBody('A field is invalid or unknown (`message` and `issues` name it): `maxSide` out of range, `source` the design does not have or given with `document`, an invalid `document` (paths `document.…`), an invalid override value (`overrides.<key>`), or an unknown variation (`available` lists them).'),
    ...bearerErrors,
    '404': errorBody("No design of yours has this id (another account's design is not found either)."),
    '413': errorBody('The body is larger than the limit (2 MiB by default).'),
    '422': errorBody("A font the design needs could not be fetched."),
    '503': commonErrors['503'],
  },
  async handler({ app, account, body, param }) {
    const input = body === undefined ? {} : bodyObject(body, PREVIEW_FIELDS, '{"overrides":{"title.text":"Hi"},"maxSide":512}')
    const preview = await previewDesign(app.services, { ...(input as Omit<Parameters<typeof previewDesign>[1], 'account' | 'id'>), account, id: param('id'), layout: true })
    const { bytes, width, height, scale, source, variation, warnings, summary, layout } = preview
    return { image: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`, width, height, scale, source, variation, warnings, summary, ...(layout ? { layout } : {}) }
  },
})
