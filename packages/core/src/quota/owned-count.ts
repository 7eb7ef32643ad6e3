/**
 * Count limits that hold under concurrency: how many designs or render keys an account holds,
 * counted by the meter (whose consume is one atomic check-and-increment on every backend), so
 * 20 concurrent creates against a remaining allowance of 5 create exactly 5, on one instance or
 * on many sharing Redis.
 *
 * Each account has, per kind, a subject `<kind>:<accountId>` (apart from the render subject, so
 * these units never show in the render history) with two never-expiring windows:
 * - `held`: one unit per item, consumed under the item's id before it is created and refunded
 *   when it is deleted (or when its creation fails), plus the **seed**;
 * - `credits`: one unit per deleted item that was counted in the seed.
 * The count is `usage(held) - 1 - usage(credits)`.
 *
 * Why a seed: accounts created before counting began already hold items the meter never saw,
 * and counts must start from what exists. The first create or delete of an account counts its
 * items in the store (C) and consumes `C + 1` units under the id `seed` with a limit of exactly
 * `C + 1`: granted only while the window is empty, so of two instances seeding at once exactly
 * one wins, and the `+ 1` keeps a seeded window non-empty even with no items. Items in the seed
 * have no id of their own in the meter, so deleting one cannot refund it: the delete credits a
 * unit instead, which the limit of later creates adds back. Creates read the credits before they
 * consume; credits only grow, so a stale read can only refuse early, never grant past the limit.
 * Deletes seed first, before the store delete, so an item deleted while another instance seeds is
 * counted by the seed and credited once, never missed. The count is exact as long as every create
 * and delete of the kind goes through {@link createOwned} and {@link deleteOwned}.
 *
 * @module quota/owned-count
 */
import type { Meter } from '../contracts/meter.js'

/** What is counted: designs (the plan's `templates`) or render keys. */
export type OwnedKind = 'designs' | 'keys'

/** One account's items of one kind, and how to count them in the store (for the seed). */
export interface OwnedItems {
  kind: OwnedKind
  /** The account id. */
  owner: string
  /** How many items the account holds in the store now; called once per account, to seed. */
  countExisting: () => Promise<number>
}

/** The outcome of {@link createOwned}: `created` false when the limit left no room (nothing was created). */
export type OwnedCreate<T> = { created: true; value: T; count: number } | { created: false; count: number }

/** Windows of these counters never end: a date far enough to never pass, that every meter accepts. */
const FOREVER = new Date(Date.UTC(9999, 0, 1))
/** The limit of an unlimited plan: items are still counted, so a later plan change starts from the truth. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER
const HELD = 'held'
const CREDITS = 'credits'
const SEED_ID = 'seed'

/**
 * Creates one item within `limit` (null: no limit, still counted): takes a unit under `id`, runs
 * `create`, and gives the unit back if `create` throws.
 *
 * @returns `{ created: false, count }` when the account already holds `limit` items; `count` is
 * the number held (after the create when it succeeded).
 * @example
 * const outcome = await createOwned(meter, { kind: 'designs', owner: 'u_1', countExisting }, { id: record.id, limit: 50 }, () => designs.create(record))
 * if (!outcome.created) throw new LithoError('ERR_TEMPLATE_LIMIT', …)
 */
export async function createOwned<T>(meter: Meter, items: OwnedItems, item: { id: string; limit: number | null }, create: () => Promise<T>): Promise<OwnedCreate<T>> {
  const subject = subjectOf(items)
  await seed(meter, items)
  const credits = await meter.usage({ subject, window: CREDITS })
  const limit = item.limit === null ? NO_LIMIT : Math.min(NO_LIMIT, item.limit + 1 + credits)
  const result = await meter.consume({ subject, window: HELD, id: unitId(item.id), amount: 1, limit, expiresAt: FOREVER })
  const count = Math.max(0, result.usage - 1 - credits)
  if (!result.granted) return { created: false, count }
  try {
    return { created: true, value: await create(), count }
  } catch (error) {
    await meter.refund({ subject, window: HELD, id: unitId(item.id) }).catch(() => false)
    throw error
  }
}

/**
 * Deletes one item and gives its unit back: seeds first (see the module comment), runs
 * `remove`, and when it removed something, refunds the item's unit or credits one for an item
 * counted in the seed.
 *
 * @returns what `remove` returned.
 * @example
 * const deleted = await deleteOwned(meter, { kind: 'keys', owner: 'u_1', countExisting }, key.id, () => accounts.deleteKey(key.id))
 */
export async function deleteOwned(meter: Meter, items: OwnedItems, id: string, remove: () => Promise<boolean>): Promise<boolean> {
  const subject = subjectOf(items)
  await seed(meter, items)
  if (!(await remove())) return false
  if (!(await meter.refund({ subject, window: HELD, id: unitId(id) }))) {
    // Counted in the seed (it predates counting): a credit gives its unit back. Its id is the
    // item's, which the store deletes once, so a credit is never taken twice for one item.
    await meter.consume({ subject, window: CREDITS, id: unitId(id), amount: 1, limit: NO_LIMIT, expiresAt: FOREVER })
  }
  return true
}

/**
 * How many items the account holds, as counted (seeding first when needed).
 *
 * @example await countOwned(meter, { kind: 'keys', owner: 'u_1', countExisting }) // 3
 */
export async function countOwned(meter: Meter, items: OwnedItems): Promise<number> {
  const subject = subjectOf(items)
  await seed(meter, items)
  const [held, credits] = await Promise.all([meter.usage({ subject, window: HELD }), meter.usage({ subject, window: CREDITS })])
  return Math.max(0, held - 1 - credits)
}

/** Seeds the account's count from the store once (see the module comment). */
async function seed(meter: Meter, items: OwnedItems): Promise<void> {
  const subject = subjectOf(items)
  if ((await meter.usage({ subject, window: HELD })) > 0) return
  const existing = await items.countExisting()
  // A limit of exactly the amount: granted only while the window is empty, so one seeder wins.
  await meter.consume({ subject, window: HELD, id: SEED_ID, amount: existing + 1, limit: existing + 1, expiresAt: FOREVER })
}

function subjectOf(items: OwnedItems): string {
  return `${items.kind}:${items.owner}`
}

/** Item ids are `[A-Za-z0-9_-]`; the prefix keeps them apart from `seed`. */
function unitId(id: string): string {
  return `item.${id}`
}
