/**
 * The webhook signing secret of the token's user (docs/webhooks.md): read it, rotate it.
 *
 * Both routes need the `write` scope, reading included: the secret lets whoever holds it forge
 * webhooks that the owner's receiver will accept as Litho's, so a read-only token (a dashboard,
 * an analytics integration) must not be able to obtain it.
 *
 * @module app/webhook-routes
 */
import type { WebhookSecrets } from '@litho/core'
import type { H3, H3Event } from 'h3'
import { bearerPreflight } from './bearer.js'
import { json } from './respond.js'

/** The bearer wrapper of `bearer-routes.ts` (`route(scope, fn)`), typed structurally. */
export type BearerRouteWrapper = (
  scope: 'read' | 'write',
  fn: (event: H3Event, account: { id: string }) => Promise<Response>,
) => (event: H3Event) => Promise<Response>

/** What the webhook secret routes need. */
export interface WebhookSecretRouteOptions {
  /** Authenticates (token and scope), resolves the account, adds CORS headers, maps errors. */
  route: BearerRouteWrapper
  secrets: Pick<WebhookSecrets, 'get' | 'rotate'>
}

/** The paths of the webhook secret routes. */
export const WEBHOOK_SECRET_PATHS = Object.freeze({
  secret: '/settings/webhook-secret',
  rotate: '/settings/webhook-secret/rotate',
})

/**
 * Adds `GET /settings/webhook-secret` (the secret, created on first use) and
 * `POST /settings/webhook-secret/rotate` (a new secret that replaces the old one at once), both
 * answering `{ success: true, secret }` with `cache-control: no-store`, both with scope `write`,
 * plus their CORS preflights (answered without auth, like every bearer route).
 */
export function mountWebhookSecretRoutes(app: H3, options: WebhookSecretRouteOptions): void {
  const { route, secrets } = options
  // A secret must not be kept by a browser or proxy cache.
  const secretResponse = (secret: string) => json({ success: true, secret }, 200, { 'cache-control': 'no-store' })

  app.options(WEBHOOK_SECRET_PATHS.secret, () => bearerPreflight('GET, OPTIONS'))
  app.get(
    WEBHOOK_SECRET_PATHS.secret,
    // `write`, not `read`: see the module comment.
    route('write', async (_event, account) => secretResponse(await secrets.get(account.id))),
  )
  app.options(WEBHOOK_SECRET_PATHS.rotate, () => bearerPreflight('POST, OPTIONS'))
  app.post(
    WEBHOOK_SECRET_PATHS.rotate,
    route('write', async (_event, account) => secretResponse(await secrets.rotate(account.id))),
  )
}
