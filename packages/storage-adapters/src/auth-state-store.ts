/**
 * Auth state stores (the `AuthStateStore` port of `@litho/core/contracts`): the short-lived,
 * security-critical state of the built-in OAuth server, as JSON values under string keys with
 * an optional TTL, and two atomic operations, `swap` (write and return the previous value) and
 * `add` (write only when absent). Single-use authorization codes and refresh-token rotation rely
 * on `swap` being exactly-once: of N concurrent swaps on a key exactly one sees the value that
 * was there before them. Every factory passes the auth-state suite of `@litho/testing`.
 *
 * Two implementations:
 *
 * - {@link unstorageAuthStateStore} over any unstorage instance, and the {@link memoryAuthStateStore}
 *   and {@link fsAuthStateStore} built on it. unstorage has no compare-and-set, so `set`, `swap`,
 *   `add` and `delete` run under a per-key lock (a promise chain, `kit/locks.ts`): a read and a write
 *   with nothing of this process in between. Atomic within ONE process (capability `shared:
 *   false`). The fs lock is per directory and process-wide, so two fs stores over one directory
 *   in one process are atomic together. Each value is stored with its expiry:
 *   `{"key":"<key>","expiresAt":<epoch ms>|null,"value":<the value>}` under
 *   `<base>:<hh>:<sha256(key), hex>` (`hh` its first two characters). Hashing gives every key
 *   (with `:`, `.`, `..`, upper case) one safe file name, the same on case-insensitive file
 *   systems. An expired entry reads as absent; a sweep, started by a write at most every 10
 *   minutes, removes expired entries in the background.
 * - {@link redisAuthStateStore} talks to Redis through ioredis: `swap` is one `SET key value
 *   [PX ms] GET` and `add` one `SET key value [PX ms] NX`, each a single command that Redis runs
 *   atomically, so the guarantees hold across any number of processes (`shared: true`). Keys are
 *   `<base>:<key>`, values the JSON text, expiry Redis' own.
 *
 * Validation, the same for every factory: keys `[A-Za-z0-9_.:-]{1,250}`; values JSON (plain
 * objects, arrays, strings, finite numbers, booleans, and null inside them; not `undefined` or
 * `null` at the top); `ttlSeconds` a whole number from 1 to 315 360 000 (10 years). A bad argument
 * rejects with a TypeError (`ERR_INVALID_ARG_TYPE` when the argument has the wrong type,
 * `ERR_INVALID_ARG_VALUE` when it has the right one but breaks the rules, including anything
 * non-JSON inside a value) before the backend is touched. Backend failures reject with a
 * LithoError `ERR_STORAGE`. No message echoes a key or a value: they may be secrets.
 *
 * @module auth-state-store
 */
export { unstorageAuthStateStore, type UnstorageAuthStateStoreOptions } from './unstorage/auth-state-store.js'
export { memoryAuthStateStore } from './memory/auth-state-store.js'
export { fsAuthStateStore, type FsAuthStateStoreOptions } from './fs/auth-state-store.js'
export { redisAuthStateStore, type RedisAuthStateStoreOptions } from './redis/auth-state-store.js'
