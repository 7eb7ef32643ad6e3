/**
 * Completion webhooks: signed delivery (Standard Webhooks, via the `standardwebhooks`
 * package) under the network policy, the retry schedule, and per-user signing secrets.
 * docs/webhooks.md describes the contract receivers see.
 *
 * @module webhooks
 */
export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WEBHOOK_USER_AGENT,
  createWebhookSender,
  webhookUrlProblem,
  type WebhookDelivery,
  type WebhookFailureReason,
  type WebhookSendRequest,
  type WebhookSender,
  type WebhookSenderOptions,
} from './sender.js'
export { WEBHOOK_RETRY_SCHEDULE_MS, nextWebhookDelay } from './retry-schedule.js'
export { createWebhookSecrets, webhookSecretKey, type WebhookSecrets } from './secrets.js'
export { WEBHOOK_SECRET_PREFIX, generateWebhookSecret, isWebhookSecret } from './secret-format.js'
