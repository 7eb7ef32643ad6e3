/**
 * @litho/core/contracts: what adapters and clients share with core, loading nothing but zod.
 * The ports (types; each port's behaviour is written in its doc comment and checked by a
 * conformance suite in `@litho/testing`), {@link LithoError} with every code, the plans, the job
 * statuses, the pure pieces of signed URLs, and the zod schemas of the documented resources.
 *
 * A runtime entry rather than a separate package: one version with core, one `LithoError` class
 * (`@litho/core` re-exports this very module), and importing it never starts the renderer
 * (`packages/storage-adapters/test/import-weight.test.ts` checks what it loads).
 *
 * @example
 * import { LithoError, PLANS, type DesignStore } from '@litho/core/contracts'
 *
 * @module @litho/core/contracts
 */

// The ports
export type { ConsumeRequest, ConsumeResult, HistoryRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from './meter.js'
export type { AuthStateStore, AuthStateCapabilities } from './auth-state-store.js'
export type { DesignRecord, DesignStore, DesignSummary } from './design-store.js'
export type { AccountStore, KeyRecord, UserRecord } from './account-store.js'
export type { FileStore, FileStoreCapabilities, FileVisibility, StoredFile } from './file-store.js'
export type { Clock } from './clock.js'
export type { RetainedFile, RetentionIndex } from './retention-index.js'
export type { AssetRecord, AssetStore } from './asset-store.js'
export { JOB_STATUSES, MAX_LISTED_JOBS, type JobOutcome, type JobQueue, type JobQueueStartOptions, type JobRecord, type JobStatus, type JobStore, type QueuedJob, type WebhookAttempt } from './job-queue.js'

// Errors
export {
  LITHO_ERROR_CODES,
  LithoError,
  createTypeError,
  formatIssues,
  isLithoErrorCode,
  type CodedTypeError,
  type LithoErrorCode,
  type LithoErrorOptions,
  type LithoIssue,
  type TypeErrorCode,
} from './errors.js'

// Plans
export {
  MAX_PLAN_LIMIT,
  MAX_PLANS,
  PLAN_IDS,
  PLAN_NAME,
  PLAN_WINDOWS,
  PLANS,
  UNCAPPED_RENDERS,
  isPlanId,
  isPlanName,
  parsePlanTable,
  planOf,
  renderLimitOf,
  type DefaultPlanId,
  type Plan,
  type PlanId,
  type PlanTable,
  type PlanWindow,
} from './plans.js'

// Signed URLs: the pure pieces (the HMAC signer is `createUrlSigner` of `@litho/core`)
export { MAX_SIGNED_URL_SECONDS, canonicalPath, type SignRequest, type UrlSigner, type UrlSignerOptions, type UrlSigningKey, type VerifyFailure } from './signing.js'

// The schemas of the documented resources
export {
  DesignDocumentSchema,
  ComponentSchema,
  ColorSchema,
  PaintSchema,
  MAX_DIMENSION,
  MAX_GROUP_DEPTH,
  MAX_TOTAL_COMPONENTS,
  type Component,
  type ComponentInput,
  type ComponentType,
  type DesignDocument,
  type DesignDocumentInput,
} from './schemas/design-document.js'
export { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from './schemas/common.js'
export {
  DesignListItemSchema,
  DesignResourceSchema,
  ListDesignsParamsSchema,
  PaginatedDesignsSchema,
  RenderConfigSchema,
  type DesignListItem,
  type DesignResource,
  type PaginatedDesigns,
  type RenderConfig,
} from './schemas/designs.js'
export {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  DEFAULT_KEY_NAME,
  ListKeysParamsSchema,
  MAX_API_KEYS,
  MAX_KEY_NAME_LENGTH,
  type ApiKey,
  type ApiKeyList,
  type CreatedApiKey,
} from './schemas/keys.js'
export {
  DEFAULT_USAGE_DAYS,
  MAX_USAGE_BUCKETS,
  USAGE_GROUP_BYS,
  UsageBucketSchema,
  UsageResponseSchema,
  type UsageBucket,
  type UsageGroupBy,
  type UsageResponse,
} from './schemas/usage.js'
export {
  BulkItemSchema,
  BulkRequestSchema,
  DELIVERIES,
  MAX_BULK_ITEMS,
  MAX_EXPIRES_IN_MINUTES,
  RENDER_PARAM_NAMES,
  RenderParamsSchema,
  type BulkItem,
  type BulkRequest,
  type Delivery,
  type RenderParams,
} from './schemas/render-params.js'
export { EXPORT_PARAM_NAMES, EXPORT_RESERVED_KEYS, ExportParamsSchema, type ExportParams } from './schemas/export-params.js'
export { EXPORT_JOB_MAX_RUNS, ExportJobAckSchema, ExportJobViewSchema, ExportWebhookDeliverySchema, ListExportJobsParamsSchema, WebhookAttemptSchema } from './schemas/export-jobs.js'
export { CONTENT_TYPES, OUTPUT_FORMATS, type OutputFormat } from './formats.js'
/** The defaults of a render. */
export { BULK_DEFAULT_DELIVERY, BULK_DEFAULT_FORMAT, DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES, DEFAULT_FORMAT, DEFAULT_QUALITY, EXPORT_DEFAULT_FORMAT, MASTER_VARIATION } from './defaults.js'
