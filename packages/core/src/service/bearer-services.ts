/**
 * The ports the bearer operations (designs, analytics, keys: docs/http-reference.md) run over, and who
 * they run for. Each operation asks only for the ports it uses, e.g. `Pick<BearerServices, 'designs'>`.
 *
 * @module service/bearer-services
 */
import type { AccountStore } from '../contracts/account-store.js'
import type { Clock } from '../contracts/clock.js'
import type { DesignStore } from '../contracts/design-store.js'
import type { Meter } from '../contracts/meter.js'
import type { RenderLinkSettings } from '../signing/render-link-secret.js'

/**
 * What the bearer operations need: the design store (reads), the account store (keys), the
 * meter (usage history) and a clock.
 *
 * @example
 * const services: BearerServices = { designs: memoryDesignStore(), accounts: memoryAccountStore(), meter: memoryMeter() }
 */
export interface BearerServices {
  designs: Pick<DesignStore, 'get' | 'listByOwner'>
  accounts: Pick<AccountStore, 'listKeys' | 'getKey' | 'createKey' | 'deleteKey' | 'setKeyLinkSalt'>
  /** Usage history, and the atomic count of each account's keys (`quota/owned-count`). */
  meter: Meter
  /** @default the system clock */
  clock?: Clock
  /** The master key of signed render links: new keys get a link secret (docs/signed-render-links.md). @default none: no link secrets */
  renderLinks?: RenderLinkSettings
}

/**
 * The signed-in account a bearer request acts for (the subject of its access token).
 *
 * @example const account: BearerAccount = { id: 'u_3Jx9Qm2L' }
 */
export interface BearerAccount {
  /** The user id: owner of designs and keys, subject of the meter. */
  id: string
}

/** The alphabet of store ids (design ids, key ids): anything else is never found, not a 400. */
export const STORE_ID = /^[A-Za-z0-9_-]{1,64}$/
/** What a render code looks like: `[A-Za-z0-9_-]{16,64}` (internal). */
export const RENDER_CODE = /^[A-Za-z0-9_-]{16,64}$/
