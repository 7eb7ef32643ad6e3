/**
 * @litho/core: render Litho design documents to png, jpeg, webp and pdf.
 *
 * @example
 * import { render } from '@litho/core'
 * const { bytes } = await render(design, { format: 'png', overrides: { 'title.text': 'Hello' } })
 *
 * @module @litho/core
 */

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

// The design document
export {
  BARCODE_SYMBOLOGIES,
  COMPONENT_SCHEMAS,
  ColorSchema,
  ComponentSchema,
  DEFAULT_DYNAMIC,
  DesignDocumentSchema,
  MAX_DIMENSION,
  MAX_GROUP_DEPTH,
  MAX_TOTAL_COMPONENTS,
  OVERRIDABLE_FIELDS,
  PaintSchema,
  type BarcodeComponent,
  type Component,
  type ComponentInput,
  type ComponentType,
  type DesignDocument,
  type DesignDocumentInput,
  type GroupComponent,
  type ImageComponent,
  type Paint,
  type QrCodeComponent,
  type ShapeComponent,
  type TextComponent,
  type Variation,
} from './design/schema.js'
export { isCssColor } from './design/color.js'
export { validateDesign } from './design/validate-design.js'
export { walkComponents, indexComponents } from './design/walk.js'
export { getDynamicData, getDynamicList, type DynamicData } from './design/dynamic-fields.js'
export {
  RESERVED_PARAMETERS,
  applyOverrides,
  dynamicOverrideKeys,
  parseOverrides,
  type AppliedOverrides,
  type IgnoredOverride,
  type IgnoredReason,
  type OverrideEntry,
  type OverrideInput,
  type ParseOverridesOptions,
  type ParsedOverrides,
} from './design/overrides.js'
export { refuseIgnoredOverrides } from './design/strict-overrides.js'
export { closestKey } from './design/suggest.js'
export { listVariations, resolveVariation, type ResolvedVariation, type VariationSummary } from './design/variations.js'
export { getDesignGuide, type ComponentGuide, type DesignGuide, type GuideField } from './design/guide.js'
export { GUIDE_SECTIONS, getGuideSection, type GuideSection } from './design/guide-concise.js'

// Quotas
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
} from './quota/plans.js'
export { quotaWindow, secondsUntil, type QuotaWindow } from './quota/window.js'
export { countOwned, createOwned, deleteOwned, type OwnedCreate, type OwnedItems, type OwnedKind } from './quota/owned-count.js'
export { storeRender, type StoreRenderServices, type StoredRender } from './service/store-render.js'
export { isExpired, sweepStoredFiles, type SweepOptions, type SweepReport } from './service/sweep-files.js'
export { attachQuota, quotaOfError, type ErrorQuota } from './quota/error-quota.js'
export { assertStorageRoom, meterStorage, refundStorage, storageUsage, type StorageUsage } from './quota/meter-storage.js'
export { meterRenders, refundRenders, toQuotaErrorBody, type QuotaErrorBody, type RenderGrant, type RenderMeterRequest } from './quota/meter-renders.js'
export { MAX_PENDING_REFUNDS, REFUND_LEDGER_KEY, refundKey, stateStoreRefundLedger, type PendingRefund, type RefundLedger } from './quota/refund-ledger.js'
export { reconcileRefunds, settleRefund, type ReconcileSummary, type RefundServices, type RefundSettings, type RefundTarget } from './quota/settle-refund.js'

// Signed URLs
export {
  MAX_SIGNED_URL_SECONDS,
  canonicalPath,
  createUrlSigner,
  type SignRequest,
  type UrlSigner,
  type UrlSignerOptions,
  type UrlSigningKey,
  type VerifyFailure,
} from './signing/url-signer.js'
export {
  RENDER_KEY_QUERY_NAMES,
  RENDER_LINK_EXP,
  RENDER_LINK_KID,
  RENDER_LINK_PARAMS,
  RENDER_LINK_SIG,
  encodeRfc3986,
  prepareRenderLink,
  renderLinkStringToSign,
  signRenderUrl,
  type SignRenderUrlOptions,
} from './signing/render-link.js'
export {
  DEFAULT_RENDER_LINK_MAX_SECONDS,
  LINK_SALT,
  LINK_SECRET_PREFIX,
  checkRenderLinkSettings,
  createLinkSalt,
  deriveRenderLinkSecret,
  isRenderLinkSignature,
  renderLinkSignature,
  signRenderUrlSync,
  type RenderLinkSettings,
} from './signing/render-link-secret.js'
export {
  RENDER_LINK_REFUSALS,
  isSignedRenderLink,
  newLinkSecret,
  rotateRenderLinkSecret,
  verifyRenderLink,
  type RenderLinkRefusal,
  type RenderLinkServices,
  type VerifiedRenderLink,
} from './service/render-links.js'

// Rendering
export { CONTENT_TYPES, OUTPUT_FORMATS, type OutputFormat, type RenderWarning, type RenderWarningCode } from './render/types.js'
export type { RenderOptions, RenderResult } from './render/render-document.js'
export type { ComponentBox, RenderLayout } from './render/component-layout.js'
export { DEFAULT_FORMAT, DEFAULT_QUALITY, MASTER_VARIATION, resolveOutputOptions, type OutputOptions } from './render/defaults.js'
export { resolveDesign, resolveDocument, type AssetBytes, type ResolveOptions, type ResolvedDocument } from './render/resolve-document.js'
export { createRenderer, render, type Renderer, type RendererOptions } from './render/renderer.js'
export { createRenderPool, type RenderPool, type RenderPoolOptions } from './render/pool.js'
export {
  DEFAULT_FETCH_LIMITS,
  DEFAULT_IMAGE_LIMITS,
  fetchRemote,
  isAddressAllowed,
  networkPolicyFromEnv,
  type FetchLimits,
  type FetchRemoteOptions,
  type FetchedResource,
  type ImageLimits,
  type NetworkPolicy,
} from './render/images/index.js'
// The service operations (transport-free; the HTTP adapter maps them to routes)
export type { Clock } from './contracts/clock.js'
export { JOB_STATUSES, MAX_LISTED_JOBS, type JobStatus } from './contracts/job-queue.js'
export {
  BULK_DEFAULT_FORMAT,
  BulkItemSchema,
  BulkRequestSchema,
  DEFAULT_EXPIRES_IN_MINUTES,
  DELIVERIES,
  MAX_BULK_ITEMS,
  MAX_EXPIRES_IN_MINUTES,
  RENDER_PARAM_NAMES,
  RenderParamsSchema,
  invalidRequest,
  parseBulkRequest,
  parseRenderParams,
  type BulkItem,
  type BulkRequest,
  type Delivery,
  type RenderParams,
} from './service/params.js'
export type { QuotaState, RenderAccount, RenderServices, RenderedFile } from './service/services.js'
export { renderDesign, type RenderDesignRequest, type RenderDesignResult, type RenderNotModified, type RenderResultBody } from './service/render-design.js'
export { createOutputCache, DEFAULT_OUTPUT_CACHE_BYTES, DEFAULT_REMOTE_TTL_MS, type OutputCache, type OutputCacheEntry, type OutputCacheOptions } from './service/output-cache.js'
export { outputKey, OUTPUT_KEY_VERSION, type OutputKeyInput } from './service/output-key.js'
export { bulkRender, type BulkRenderResult, type BulkResponseBody, type BulkResultRow } from './service/bulk-render.js'
export { loadPublishedDesign, type DesignLookup } from './service/prepare-render.js'
// The asset library (docs/assets.md)
export {
  assetFileKey,
  deleteAsset,
  getAsset,
  listAssets,
  MAX_ASSET_NAME_LENGTH,
  parseDeleteAssetParams,
  parseListAssetsParams,
  publishedDesignsUsing,
  readAssetContent,
  toAssetResource,
  uploadAsset,
  type AssetAccount,
  type AssetServices,
} from './assets/asset-services.js'
export { assetIdOf, attachAssets, createAssetSource, type AssetSource, type AssetSourceOptions } from './assets/asset-source.js'
export { ASSET_CONTENT_TYPES, MAX_ASSET_BYTES, MAX_ASSET_PIXELS, MAX_SVG_ASSET_BYTES, checkAsset, findUnsafeSvg, type AssetRefusalReason, type CheckedAsset } from './assets/validate-asset.js'
export { AssetResourceSchema, DeleteAssetParamsSchema, DeletedAssetSchema, ListAssetsParamsSchema, PaginatedAssetsSchema, type AssetResource, type DeletedAsset, type PaginatedAssets } from './contracts/schemas/assets.js'
// The bearer operations: designs, usage analytics, render keys (docs/http-reference.md)
export type { BearerAccount, BearerServices } from './service/bearer-services.js'
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './service/query.js'
export {
  DesignListItemSchema,
  DesignResourceSchema,
  ListDesignsParamsSchema,
  MAX_PAGE,
  PaginatedDesignsSchema,
  RenderConfigSchema,
  getDesign,
  getRenderConfig,
  listDesigns,
  parseListDesignsParams,
  type DesignListItem,
  type DesignResource,
  type ListDesignsParams,
  type PaginatedDesigns,
  type RenderConfig,
} from './service/designs.js'
export {
  DEFAULT_USAGE_DAYS,
  MAX_USAGE_BUCKETS,
  USAGE_GROUP_BYS,
  UsageBucketSchema,
  UsageParamsSchema,
  UsageResponseSchema,
  bucketEnd,
  bucketStart,
  countBuckets,
  getUsage,
  listBuckets,
  parseInstant,
  parseUsageParams,
  type UsageBucket,
  type UsageGroupBy,
  type UsageParams,
  type UsageResponse,
} from './service/usage.js'
export {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  DEFAULT_KEY_NAME,
  ListKeysParamsSchema,
  MAX_API_KEYS,
  MAX_KEY_NAME_LENGTH,
  createApiKey,
  listApiKeys,
  parseCreateKeyBody,
  parseListKeysParams,
  revokeApiKey,
  type ApiKey,
  type ApiKeyList,
  type CreateKeyBody,
  type CreatedApiKey,
  type GeneratedKey,
  type ListKeysParams,
} from './service/keys.js'
// Design authoring: create, update the draft (replace or patch), publish, delete, preview (the MCP tools)
export { DesignPatchSchema, applyDesignPatch, type DesignPatch } from './design/patch.js'
export {
  CreateDesignInputSchema,
  DeleteDesignInputSchema,
  MAX_DESIGN_NAME_LENGTH,
  PublishDesignInputSchema,
  UpdateDesignInputSchema,
  type CreateDesignInput,
  type DeleteDesignInput,
  type PublishDesignInput,
  type UpdateDesignInput,
} from './service/design-inputs.js'
export {
  createDesign,
  deleteDesign,
  publishDesign,
  updateDesign,
  updateDesignWithPrevious,
  type AuthoringAccount,
  type AuthoringServices,
  type CreateDesignRequest,
  type UpdateDesignRequest,
} from './service/design-writes.js'
export { diffDocuments, summarizeDesignWrite, type ComponentSummary, type DesignChanges, type DesignWriteSummary } from './service/design-summary.js'
export {
  DEFAULT_PREVIEW_MAX_SIDE,
  MIN_PREVIEW_MAX_SIDE,
  PreviewDesignInputSchema,
  previewDesign,
  type DesignPreview,
  type ImageFailedWarning,
  type PreviewDesignInput,
  type PreviewDesignRequest,
  type PreviewWarning,
} from './service/preview.js'
// The synchronous export operations (docs/exports-and-jobs.md)
export {
  EXPORT_DEFAULT_FORMAT,
  EXPORT_PARAM_NAMES,
  EXPORT_RESERVED_KEYS,
  ExportParamsSchema,
  exportDesign,
  exportOverrides,
  parseExportParams,
  type ExportDelivery,
  type ExportDesignRequest,
  type ExportDesignResult,
  type ExportParams,
  type ExportResultBody,
  type ExportServices,
  type ExportSource,
} from './service/export-design.js'

// Completion webhooks: signed delivery under the network policy, the retry schedule, per-user secrets
export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_USER_AGENT,
  createWebhookSecrets,
  createWebhookSender,
  generateWebhookSecret,
  isWebhookSecret,
  nextWebhookDelay,
  webhookSecretKey,
  webhookUrlProblem,
  type WebhookDelivery,
  type WebhookFailureReason,
  type WebhookSecrets,
  type WebhookSendRequest,
  type WebhookSender,
  type WebhookSenderOptions,
} from './webhooks/index.js'
// Export jobs and their completion webhooks
export {
  EXPORT_ABANDONED,
  EXPORT_JOB_MAX_RUNS,
  ExportJobAckSchema,
  ExportJobViewSchema,
  createExportJobHandler,
  enqueueExportJob,
  exportPollPath,
  getExportJob,
  parseExportJobRequest,
  webhookPayload,
  webhookPayloadAt,
  type ExportJobAck,
  type ExportJobHandler,
  type ExportJobRequest,
  type ExportJobServices,
  type ExportJobView,
} from './service/export-jobs.js'
export { ExportWebhookDeliverySchema, ListExportJobsParamsSchema } from './contracts/schemas/export-jobs.js'
export {
  listExportJobs,
  listWebhookDeliveries,
  parseListExportJobsParams,
  type ExportWebhookDelivery,
  type ListExportJobsParams,
  type Paginated,
} from './service/export-job-list.js'
