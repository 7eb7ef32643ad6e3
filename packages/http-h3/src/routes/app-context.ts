/**
 * What the routes of one app share: its options, its addresses, the services of `@litho/core`
 * built from the options once, and the credential checkers.
 *
 * @module routes/app-context
 */
import { createAssetSource, createOutputCache, networkPolicyFromEnv, parsePlanTable, type AssetSource, type NetworkPolicy, PLANS, type Clock, type OutputCache, type PlanTable, type RefundSettings, type RenderLinkSettings } from '@litho/core'
import type { AccountStore, AssetStore, DesignStore, FileStore, Meter, RetentionIndex } from '@litho/core/contracts'
import { createRenderKeyAuthenticator, type BearerVerifier, type RenderKeyAuthenticator } from '@litho/auth-adapters'
import { getRequestIP, type H3Event } from 'h3'
import type { LithoAppOptions } from '../app/create-litho-app.js'
import type { ErrorReportContext } from '../app/errors.js'

/** The path of the protected-resource metadata of the API (RFC 9728), relative to `{base_url}`. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'

/** The path of the MCP endpoint, relative to `{base_url}`. */
export const MCP_PATH = '/api/mcp'

/** Largest JSON body of a render POST, a bulk, an export or an MCP message when the options do not say. */
const DEFAULT_MAX_BODY = 2 * 1024 * 1024

/** The context of one app's routes. */
export interface AppContext {
  options: LithoAppOptions
  renderUrl: string
  baseUrl: string
  authUrl: string
  maxBodyBytes: number
  clock: Clock
  /** Where the app itself may fetch (URL uploads of `upload_asset`): the `network` option, else the environment's. */
  network: NetworkPolicy
  /** Reports an unexpected error, with the id of the request it happened in. */
  report: (error: unknown, context?: ErrorReportContext) => void
  /** The ports every service of `@litho/core` takes (renders, exports, lists, keys). */
  services: {
    designs: DesignStore
    accounts: AccountStore
    files: FileStore
    meter: Meter
    refunds: RefundSettings
    retention: RetentionIndex | undefined
    /** The asset library's records (docs/assets.md); without it the asset routes are not mounted. */
    assets?: AssetStore
    /** Where renders load `asset:<id>` sources: the asset store and the file store. */
    assetSource?: AssetSource
    renderer: LithoAppOptions['renderer']
    clock: Clock
    bulkConcurrency?: number
    strictOverrides?: boolean
    /** The master key of signed render links: keys get link secrets. */
    renderLinks?: RenderLinkSettings
    outputCache?: OutputCache
    /** The plan table (`plans` of the options, checked; `PLANS` without it). */
    plans: PlanTable
  }
  authenticateKey: RenderKeyAuthenticator
  /** Checks bearer tokens; without it the bearer routes are not mounted. */
  verifier: BearerVerifier | undefined
  /** The client's network address (rate limits of sign-in and registration). */
  clientAddress(event: H3Event): string | undefined
  /** The OpenAPI document of the app's route table, as JSON (built on first use). */
  openApiDocument(): string
}

/**
 * The context of an app with `options` and its normalised addresses.
 *
 * @example const context = createAppContext(options, { renderUrl, baseUrl, authUrl }, () => JSON.stringify(document))
 */
export function createAppContext(options: LithoAppOptions, addresses: { renderUrl: string; baseUrl: string; authUrl: string }, openApiDocument: () => string): AppContext {
  const logger = options.logger
  const report =
    options.onError ??
    (logger ? (error: unknown, at?: ErrorReportContext) => logger.error({ err: error, ...(at?.requestId ? { reqId: at.requestId } : {}) }, 'error') : (error: unknown) => console.error('[litho]', error))
  const metrics = options.metrics
  const clock = options.clock ?? { now: () => new Date() }
  return {
    options,
    ...addresses,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    clock,
    network: options.network ?? networkPolicyFromEnv(),
    report,
    services: {
      designs: options.designs,
      accounts: options.accounts,
      files: options.files,
      meter: options.meter,
      refunds: { report, ...(options.refundLedger ? { ledger: options.refundLedger } : {}) },
      retention: options.retention,
      ...(options.assets ? { assets: options.assets, assetSource: createAssetSource({ assets: options.assets, files: options.files }) } : {}),
      renderer: metrics ? metrics.instrumentRenderer(options.renderer) : options.renderer,
      clock,
      ...(options.bulkConcurrency ? { bulkConcurrency: options.bulkConcurrency } : {}),
      ...(options.strictOverrides ? { strictOverrides: true } : {}),
      ...(options.renderLinks ? { renderLinks: options.renderLinks } : {}),
      ...instrumented(outputCacheOf(options, clock, report), metrics),
      plans: plansOf(options.plans),
    },
    authenticateKey: createRenderKeyAuthenticator({ accounts: options.accounts, now: () => clock.now() }),
    verifier: options.bearer ?? options.oauth?.verifier,
    clientAddress: (event) => getRequestIP(event, { xForwardedFor: options.trustProxy === true }),
    openApiDocument,
  }
}

/** The app's output cache from its `outputCache` option (a memory cache of the default size when absent). */
function outputCacheOf(options: LithoAppOptions, clock: Clock, report: (error: unknown) => void): { outputCache?: OutputCache } {
  const setting = options.outputCache
  if (setting === false) return {}
  if (setting !== undefined && 'get' in setting && typeof setting.get === 'function') return { outputCache: setting }
  const { maxBytes, shared, remoteTtlMs } = (setting ?? {}) as { maxBytes?: number; shared?: boolean; remoteTtlMs?: number }
  if (maxBytes === 0 && shared !== true) return {}
  return {
    outputCache: createOutputCache({
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(remoteTtlMs !== undefined ? { remoteTtlMs } : {}),
      ...(shared === true ? { shared: options.files } : {}),
      clock,
      onError: report,
    }),
  }
}

/** The output cache, timed by the metrics when the app has them. */
function instrumented(cache: { outputCache?: OutputCache }, metrics: LithoAppOptions['metrics']): { outputCache?: OutputCache } {
  return cache.outputCache && metrics ? { outputCache: metrics.instrumentOutputCache(cache.outputCache) } : cache
}

/** The app's plan table: `PLANS`, or the option checked by `parsePlanTable` (a TypeError naming the option and the field). */
function plansOf(plans: LithoAppOptions['plans']): PlanTable {
  if (plans === undefined) return PLANS
  try {
    return parsePlanTable(plans)
  } catch (error) {
    throw Object.assign(new TypeError(`Expected option plans to be a plan table: ${(error as Error).message}`), { code: 'ERR_INVALID_ARG_VALUE' })
  }
}
