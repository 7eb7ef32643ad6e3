/**
 * Every route of the app, in the order the OpenAPI document lists them. To add a route, declare
 * it with `defineRoute` in the file of its concern and add it here: it is then mounted (when its
 * condition holds), documented in `/openapi.json` and in docs/http-reference.md, and checked by
 * the OpenAPI test against what is mounted.
 *
 * @module routes/table
 */
import type { RouteDefinition } from './define-route.js'
import { getDesignRoute, getRenderConfigRoute, listDesignsRoute } from './design-routes.js'
import { createDesignRoute, deleteDesignRoute, publishDesignRoute, updateDesignRoute } from './design-write-routes.js'
import { mcpProtectedResourceMetadataRoute, protectedResourceMetadataRoute } from './discovery-routes.js'
import { exportRouteHosted, exportRouteSigned, exportRouteStream, getExportJobRoute, listExportJobsRoute, queueExportJobRoute } from './export-routes.js'
import { docsFileRoute, docsPageRoute } from './docs-routes.js'
import { storedFileRoute } from './file-routes.js'
import { deleteAssetRoute, getAssetContentRoute, getAssetRoute, listAssetsRoute, uploadAssetRoute } from './asset-routes.js'
import { mcpRoute } from './mcp-route.js'
import { authorizationServerMetadataRoute, authorizeRoute, jwksRoute, logoutRoute, registerRoute, revokeRoute, tokenRoute } from './oauth-routes.js'
import { landingRoute } from './landing-route.js'
import { openApiRoute } from './openapi-route.js'
import { previewDesignRoute } from './preview-routes.js'
import { rotateLinkSecretRoute } from './render-link-routes.js'
import { bulkRoute, renderRoute, renderWithBodyRoute } from './render-routes.js'
import { createApiKeyRoute, deleteApiKeyRoute, getWebhookSecretRoute, listApiKeysRoute, listWebhookDeliveriesRoute, rotateWebhookSecretRoute, usageRoute } from './settings-routes.js'

/** The route table of `createLithoApp`. */
export const ROUTES: readonly RouteDefinition[] = Object.freeze([
  renderRoute,
  renderWithBodyRoute,
  bulkRoute,
  storedFileRoute,
  openApiRoute,
  docsPageRoute,
  docsFileRoute,
  landingRoute,
  listDesignsRoute,
  getDesignRoute,
  getRenderConfigRoute,
  createDesignRoute,
  updateDesignRoute,
  publishDesignRoute,
  deleteDesignRoute,
  previewDesignRoute,
  uploadAssetRoute,
  listAssetsRoute,
  getAssetRoute,
  getAssetContentRoute,
  deleteAssetRoute,
  exportRouteStream,
  exportRouteHosted,
  exportRouteSigned,
  queueExportJobRoute,
  usageRoute,
  listExportJobsRoute,
  getExportJobRoute,
  listApiKeysRoute,
  createApiKeyRoute,
  deleteApiKeyRoute,
  rotateLinkSecretRoute,
  getWebhookSecretRoute,
  rotateWebhookSecretRoute,
  listWebhookDeliveriesRoute,
  mcpRoute,
  protectedResourceMetadataRoute,
  mcpProtectedResourceMetadataRoute,
  authorizationServerMetadataRoute,
  jwksRoute,
  registerRoute,
  authorizeRoute,
  tokenRoute,
  revokeRoute,
  logoutRoute,
])
