/**
 * @litho/core/contracts: the ports that adapters implement. Types only, no runtime code,
 * so an adapter depends on these without pulling in the renderer. Each port's behaviour is
 * written in its doc comment and checked by a conformance suite in `@litho/testing`.
 *
 * @module @litho/core/contracts
 */
export type { ConsumeRequest, ConsumeResult, HistoryRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from './meter.js'
export type { AuthStateStore, AuthStateCapabilities } from './auth-state-store.js'
export type { DesignRecord, DesignStore, DesignSummary } from './design-store.js'
export type { AccountStore, KeyRecord, UserRecord } from './account-store.js'
export type { FileStore, FileStoreCapabilities, FileVisibility, StoredFile } from './file-store.js'
export type { Clock } from './clock.js'
export type { RetainedFile, RetentionIndex } from './retention-index.js'
export type { JobOutcome, JobQueue, JobQueueStartOptions, JobRecord, JobStatus, JobStore, QueuedJob, WebhookAttempt } from './job-queue.js'
