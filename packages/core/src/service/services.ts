/**
 * The ports the service operations run over, and the shapes they share.
 *
 * @module service/services
 */
import type { AssetSource } from '../assets/asset-source.js'
import type { Clock } from '../contracts/clock.js'
import type { DesignStore } from '../contracts/design-store.js'
import type { FileStore, StoredFile } from '../contracts/file-store.js'
import type { Meter } from '../contracts/meter.js'
import type { RetentionIndex } from '../contracts/retention-index.js'
import type { PlanId, PlanTable } from '../quota/plans.js'
import type { RefundSettings } from '../quota/settle-refund.js'
import type { Renderer } from '../render/renderer.js'
import type { OutputFormat } from '../render/types.js'
import type { OutputCache } from './output-cache.js'

/** What the render operations need: stores, meter, a renderer (the pool on a server) and a clock. */
export interface RenderServices {
  designs: Pick<DesignStore, 'getByRenderCode'>
  files: FileStore
  meter: Meter
  /** Records stored files for the retention sweep (`sweepStoredFiles`); without it they are never swept. */
  retention?: RetentionIndex
  /** The renderer; its `renderResolved`, when it has one (the pool does), spares a second resolve of each render. */
  renderer: Pick<Renderer, 'render' | 'renderResolved'>
  /** @default the system clock */
  clock?: Clock
  /** Where a refund the meter refused is recorded, and who is told (quota/settle-refund). @default retried, then reported */
  refunds?: RefundSettings
  /**
   * Finished stream renders by output key (`createOutputCache`): an identical request is served
   * without rendering, and still metered. @default none (`createLithoApp` makes one)
   */
  outputCache?: OutputCache
  /** Where renders load the assets documents draw (`asset:<id>`, docs/assets.md). @default none: such sources fail */
  assetSource?: AssetSource
  /** Bulk items rendered at once; the pool queues the rest. @default 4 */
  bulkConcurrency?: number
  /**
   * Refuse override keys that name no overridable field (400 with "did you mean") unless a
   * request says `strict=false`, instead of ignoring them. @default false
   */
  strictOverrides?: boolean
  /**
   * The plan table an account's `plan` is read from (its render limit and window, its storage
   * limit): an operator's own (`parsePlanTable`). @default PLANS
   */
  plans?: PlanTable
}

/** Who a render is for: the account that owns the design and the quota. */
export interface RenderAccount {
  id: string
  plan: PlanId
}

/** The account's quota after a request, for response headers. */
export interface QuotaState {
  usage: number
  limit: number
  remaining: number
  resetAt: Date
}

/** A stored render's record (the `file` of a render result). */
export interface RenderedFile extends StoredFile {
  format: OutputFormat
  width: number
  height: number
  variation: string
}

/** The clock to use. */
export function clockOf(services: { clock?: Clock }): Clock {
  return services.clock ?? systemClock
}

const systemClock: Clock = { now: () => new Date() }
