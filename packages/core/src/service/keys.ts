/**
 * The render keys of an account, managed under `/settings/api-keys` (docs/authentication.md,
 * "Render keys"; bearer): list, create (the secret is shown once), revoke. Transport-free.
 *
 * Keys are generated outside core (`createRenderKey` of `@litho/auth-adapters` owns the secret
 * format and hash) and passed in as `newKey`. Nothing here ever returns a key's hash, and the
 * secret only in the answer to its creation.
 *
 * @module service/keys
 */
import type { KeyRecord } from '../contracts/account-store.js'
import { describeReceived } from '../design/schema.js'
import { toLithoIssues } from '../design/validate-design.js'
import { LithoError } from '../errors.js'
import { countOwned, createOwned, deleteOwned, type OwnedItems } from '../quota/owned-count.js'
import { invalidRequest } from './params.js'
import { clockOf } from './services.js'
import { STORE_ID, type BearerAccount, type BearerServices } from './bearer-services.js'
import { newLinkSecret } from './render-links.js'
import { CreateKeyBodySchema, DEFAULT_KEY_NAME, ListKeysParamsSchema, MAX_API_KEYS, type ApiKey, type ApiKeyList, type CreatedApiKey } from '../contracts/schemas/keys.js'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseQuery } from './query.js'

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
} from '../contracts/schemas/keys.js'

/**
 * Validated key-list parameters with their defaults applied.
 *
 * @example const params: ListKeysParams = { page: 1, limit: 10 }
 */
export interface ListKeysParams {
  page: number
  limit: number
}

/**
 * Validates the query of `GET /settings/api-keys`.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `$page` or `$limit`, e.g. `$limit: expected a whole number from 1 to 100, received 0`.
 * @example parseListKeysParams(new URLSearchParams('$page=2&$limit=20')) // { page: 2, limit: 20 }
 */
export function parseListKeysParams(query: URLSearchParams): ListKeysParams {
  const parsed = parseQuery(query, ListKeysParamsSchema, ['$page', '$limit'])
  return { page: parsed.$page ?? 1, limit: parsed.$limit ?? DEFAULT_PAGE_SIZE }
}

/**
 * A validated create-key body with its default applied.
 *
 * @example const body: CreateKeyBody = { name: 'CI' }
 */
export interface CreateKeyBody {
  name: string
}

/**
 * Validates the body of a key creation. No body (`undefined`, `null`) is `{}`: a key named
 * {@link DEFAULT_KEY_NAME}.
 *
 * @throws LithoError `ERR_INVALID_REQUEST`: a body that is not a JSON object, or a bad `name`.
 * @example parseCreateKeyBody({ name: 'Zapier' }) // { name: 'Zapier' }
 */
export function parseCreateKeyBody(body: unknown): CreateKeyBody {
  const value = body === undefined || body === null ? {} : body
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest([{ path: '', message: `expected a JSON object, received ${describeReceived(body)}` }])
  const result = CreateKeyBodySchema.safeParse(value)
  if (!result.success) throw invalidRequest(toLithoIssues(result.error))
  return { name: result.data.name ?? DEFAULT_KEY_NAME }
}

/**
 * A freshly generated key, e.g. the result of `createRenderKey()` of `@litho/auth-adapters`.
 *
 * @example const generated: GeneratedKey = { id: 'key_3Jx9', secret: 'lk_…', hash: 'sha256:…', displayPrefix: 'lk_4fT9w…' }
 */
export interface GeneratedKey {
  id: string
  /** Shown once, never stored. */
  secret: string
  /** What is stored and looked up. */
  hash: string
  /** What lists show. */
  displayPrefix: string
}

/**
 * One page of the account's keys, newest first: id, name, state, prefix and dates. The total
 * is the account's key count as the meter keeps it (the count the key limit is enforced on).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `$page` or `$limit` when out of range (callers
 * normally pass {@link parseListKeysParams}'s result); store errors as they are.
 * @example const { docs, hasNextPage } = await listApiKeys(services, { account: { id: 'u_1' }, page: 1, limit: 10 })
 */
export async function listApiKeys(services: Pick<BearerServices, 'accounts' | 'meter'>, request: { account: BearerAccount; page?: number; limit: number }): Promise<ApiKeyList> {
  const page = request.page ?? 1
  const checked = ListKeysParamsSchema.safeParse({ $page: page, $limit: request.limit })
  if (!checked.success) throw invalidRequest(toLithoIssues(checked.error))
  const [keys, total] = await Promise.all([
    services.accounts.listKeys(request.account.id, { limit: request.limit, offset: (page - 1) * request.limit }),
    countOwned(services.meter, ownedKeys(services, request.account.id)),
  ])
  const totalPages = Math.max(1, Math.ceil(total / request.limit))
  return { docs: keys.map(toApiKey), page, limit: request.limit, totalPages, hasNextPage: page < totalPages }
}

/**
 * Creates an active key for the account and returns its secret, once, with its link secret
 * (`linkSecret`) when `services.renderLinks` is set. `name` is validated
 * as {@link CreateKeyBodySchema} (absent: {@link DEFAULT_KEY_NAME}); `createdAt` comes from
 * the clock. An account holds at most {@link MAX_API_KEYS} keys, counted atomically by the meter
 * before the store write, so concurrent creations never pass it (see `quota/owned-count`).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a bad name or when the account already has
 * {@link MAX_API_KEYS} keys; store errors as they are.
 * @example
 * import { createRenderKey } from '@litho/auth-adapters'
 * const { key } = await createApiKey(services, { account: { id: 'u_1' }, name: 'CI', newKey: createRenderKey })
 */
export async function createApiKey(
  services: Pick<BearerServices, 'accounts' | 'meter' | 'clock' | 'renderLinks'>,
  request: { account: BearerAccount; name?: string | undefined; newKey: () => GeneratedKey },
): Promise<CreatedApiKey> {
  const { account } = request
  const { name } = parseCreateKeyBody(request.name === undefined ? {} : { name: request.name })
  const generated = request.newKey()
  // With a master key, the key can sign render links at once (docs/signed-render-links.md).
  const link = newLinkSecret(services.renderLinks, generated.id)
  const record: KeyRecord = {
    id: generated.id,
    userId: account.id,
    name,
    hash: generated.hash,
    prefix: generated.displayPrefix,
    active: true,
    createdAt: clockOf(services).now().toISOString(),
    lastUsedAt: null,
    ...(link ? { linkSalt: link.linkSalt } : {}),
  }
  // Counted atomically by the meter (quota/owned-count): the unit is taken before the store write.
  const outcome = await createOwned(services.meter, ownedKeys(services, account.id), { id: record.id, limit: MAX_API_KEYS }, () => services.accounts.createKey(record))
  if (!outcome.created) throw invalidRequest([{ path: '', message: `an account holds at most ${MAX_API_KEYS} API keys: revoke one before creating another` }])
  const created: CreatedApiKey = { success: true, key: generated.secret, _id: record.id, name: record.name, active: record.active, prefix: record.prefix, createdAt: record.createdAt }
  return link ? { ...created, linkSecret: link.linkSecret } : created
}

/**
 * Revokes a key by **deleting** it: from then on it authenticates nothing and is no longer
 * listed (a deactivated key would linger in the list and count against {@link MAX_API_KEYS};
 * there is no way to reactivate one here, so deleting loses nothing).
 *
 * @throws LithoError `ERR_KEY_NOT_FOUND` for an unknown or already deleted key, an id outside
 * `[A-Za-z0-9_-]{1,64}`, or another account's key (never telling which).
 * @example await revokeApiKey(services, { account: { id: 'u_1' }, id: 'key_3Jx9' }) // { success: true, _id: 'key_3Jx9' }
 */
export async function revokeApiKey(services: Pick<BearerServices, 'accounts' | 'meter'>, request: { account: BearerAccount; id: string }): Promise<{ success: true; _id: string }> {
  const { account, id } = request
  const key = typeof id === 'string' && STORE_ID.test(id) ? await services.accounts.getKey(id) : null
  if (key === null || key.userId !== account.id || !(await deleteOwned(services.meter, ownedKeys(services, account.id), id, () => services.accounts.deleteKey(id)))) {
    const shown = String(id).slice(0, 64)
    throw new LithoError('ERR_KEY_NOT_FOUND', `no API key has the id ${JSON.stringify(shown)}`, { details: { id: shown } })
  }
  return { success: true, _id: id }
}

/** An account's keys for the meter's count: the store's list, page by page, seeds it. */
function ownedKeys(services: Pick<BearerServices, 'accounts'>, owner: string): OwnedItems {
  return {
    kind: 'keys',
    owner,
    countExisting: async () => {
      let count = 0
      for (let page: KeyRecord[] = []; ; count += page.length) {
        page = await services.accounts.listKeys(owner, { limit: MAX_PAGE_SIZE, offset: count })
        if (page.length < MAX_PAGE_SIZE) return count + page.length
      }
    },
  }
}

/** The listed form of a key: chosen fields only, so a hash can never slip through. */
function toApiKey(key: KeyRecord): ApiKey {
  return { _id: key.id, name: key.name, active: key.active, prefix: key.prefix, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt }
}
