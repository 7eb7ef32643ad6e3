/**
 * `GET /files/**` (and HEAD, which h3 answers with the GET route): the stored renders of an
 * app-served file store (fs, Redis, memory); S3 URLs point at the bucket instead.
 *
 * @module routes/file-routes
 */
import * as z from 'zod'
import { serveStoredFile } from '../app/serve-file.js'
import { errorBody } from '../openapi/responses.js'
import { defineRoute } from './define-route.js'

/** `GET /files/**:key`: a stored file, public or with its signature. */
export const storedFileRoute = defineRoute({
  method: 'GET',
  path: '/files/**:key',
  server: 'render',
  // The signature (exp, kid, sig) is checked by the handler, before any I/O.
  auth: { kind: 'signed-url' },
  when: (app) => !app.options.files.capabilities.presigned,
  operationId: 'getStoredFile',
  tags: ['render'],
  summary: 'A stored render (hosted: public; signed: with exp, kid and sig)',
  description: 'Served by the app for the filesystem and Redis file stores. On S3 the URLs point at the bucket instead.',
  params: z.object({ key: z.string() }),
  query: [z.object({ exp: z.number().int().optional(), kid: z.string().optional(), sig: z.string().optional() })],
  responses: {
    '200': { description: 'The file.', content: { 'image/*': {}, 'application/pdf': {} } },
    '403': errorBody('Private file without a valid signature, or the signed URL expired.'),
    '404': errorBody('No such file.'),
  },
  handler: ({ app, event }) => serveStoredFile(event, { files: app.options.files, signer: app.options.signer!, now: app.clock.now() }),
})
