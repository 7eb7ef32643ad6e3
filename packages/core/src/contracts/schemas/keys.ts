/**
 * The render-key resources of `/settings/api-keys` (docs/http-reference.md): the list query, the
 * create body, a listed key, the list, and the answer to a creation (the only one with the secret).
 *
 * @module contracts/schemas/keys
 */
import * as z from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, expected, pageSchema, pageSizeSchema } from './common.js'

/** The name of a key created without one. */
export const DEFAULT_KEY_NAME = 'API key'
/** Longest key name, in characters (after trimming). */
export const MAX_KEY_NAME_LENGTH = 100
/** Most keys one account may hold, so that one list page (`$limit` ≤ 100) always shows them all. */
export const MAX_API_KEYS = MAX_PAGE_SIZE

/**
 * The query of `GET /settings/api-keys`: `$page` (≥ 1, default 1) and `$limit` (1-100, default 10).
 *
 * @example ListKeysParamsSchema.parse({ $page: 2, $limit: 50 })
 */
export const ListKeysParamsSchema = z.object({
  $page: pageSchema.optional().meta({ description: 'Page number, from 1.', default: 1 }),
  $limit: pageSizeSchema.optional().meta({ description: `Keys per page, newest first; 1-${MAX_PAGE_SIZE}.`, default: DEFAULT_PAGE_SIZE }),
})

const CONTROL = /[\u0000-\u001f\u007f]/
const nameWhat = `a name of 1 to ${MAX_KEY_NAME_LENGTH} characters`

/**
 * The JSON body that creates a key: an optional `name` (trimmed, 1-100 characters, no control
 * characters; default `API key`). Other fields are ignored.
 *
 * @example CreateKeyBodySchema.parse({ name: '  CI  ' }) // { name: 'CI' }
 */
export const CreateKeyBodySchema = z.object({
  name: z
    .string(expected(nameWhat))
    .trim()
    .min(1, expected(nameWhat))
    .max(MAX_KEY_NAME_LENGTH, expected(nameWhat))
    .refine((value) => !CONTROL.test(value), expected(`${nameWhat} without control characters`))
    .optional()
    .meta({ description: `A label for the key, 1-${MAX_KEY_NAME_LENGTH} characters.`, default: DEFAULT_KEY_NAME }),
})

/**
 * An item of the key list (docs/http-reference.md, ApiKey): never the secret, never its hash.
 *
 * @example ApiKeySchema.parse({ _id: 'key_3Jx9', name: 'CI', active: true, prefix: 'lk_4fT9w…', createdAt: '…', lastUsedAt: null })
 */
export const ApiKeySchema = z.object({
  _id: z.string().meta({ description: 'The key’s id, for revoking it.' }),
  name: z.string(),
  active: z.boolean(),
  prefix: z.string().meta({ description: 'The first characters of the secret, to recognise the key.' }),
  createdAt: z.string().meta({ format: 'date-time' }),
  lastUsedAt: z.string().nullable().meta({ format: 'date-time', description: 'When a render (or a signed render link) last used the key, or null if never. Approximate: written at most once a minute per key, in the background, so it may be up to a minute old.' }),
})
/** A key as listed, e.g. `{ _id: 'key_3Jx9', name: 'CI', active: true, prefix: 'lk_4fT9w…', createdAt, lastUsedAt: null }`. */
export type ApiKey = z.infer<typeof ApiKeySchema>

/**
 * The body of `GET /settings/api-keys`: one page of keys, like `/designs/v2`.
 *
 * @example ApiKeyListSchema.parse({ docs: [], page: 1, limit: 10, totalPages: 1, hasNextPage: false })
 */
export const ApiKeyListSchema = z.object({
  docs: z.array(ApiKeySchema).meta({ description: 'Newest first.' }),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int().meta({ description: 'Pages of `limit` keys; at least 1, even with no keys.' }),
  hasNextPage: z.boolean(),
})
/** The key list, e.g. `{ docs: [...], page: 1, limit: 10, totalPages: 1, hasNextPage: false }`. */
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>

/**
 * The answer to a key creation: the only time the secret (`key`) is shown.
 *
 * @example CreatedApiKeySchema.parse({ success: true, key: 'lk_…', _id: 'key_3Jx9', name: 'CI', active: true, prefix: 'lk_4fT9w…', createdAt: '…' })
 */
export const CreatedApiKeySchema = z.object({
  success: z.literal(true),
  key: z.string().meta({ description: 'The secret, for the `dma-api-key` header. Shown once: store it now.' }),
  _id: z.string(),
  name: z.string(),
  active: z.boolean(),
  prefix: z.string(),
  createdAt: z.string().meta({ format: 'date-time' }),
  linkSecret: z
    .string()
    .optional()
    .meta({ description: 'The key’s link secret, to sign render links offline ([signed render links](./signed-render-links.md)). Shown once; present when the server signs links.' }),
})
/** A created key, e.g. `{ success: true, key: 'lk_…', _id: 'key_3Jx9', name: 'CI', active: true, prefix: 'lk_4fT9w…', createdAt }`. */
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>

