/**
 * The storage behind `litho serve` and the admin commands (`users create`, `keys create`,
 * `designs import`): which backend holds designs, accounts, usage counters and stored files,
 * chosen by environment variables, with everything on the filesystem under the data directory
 * by default.
 *
 * | variable | effect |
 * |---|---|
 * | (none) | designs, accounts, meter, OAuth state, export jobs, the retention index, asset records and files on the filesystem: `<dataDir>/designs`, `/accounts`, `/meter`, `/auth`, `/jobs`, `/retention`, `/assets`, `/files` |
 * | `LITHO_REDIS_URL` | designs, accounts, meter, OAuth state, job records, the retention index and asset records on Redis, the job queue on BullMQ (shared by many instances); files too unless S3 is configured |
 * | `LITHO_REDIS_PREFIX` | prefix of every Redis key, `:`-separated `[A-Za-z0-9_-]` segments (default `litho`) |
 * | `LITHO_JOB_LOCK_MS`, `LITHO_JOB_STALLED_CHECK_MS` | with Redis: how long a worker's job lock lasts (default 10000) and how often stalled jobs are looked for (default 5000): a dead instance's jobs run elsewhere within about their sum, see job-queue-config.ts |
 * | `LITHO_S3_BUCKET` | files on S3; then `LITHO_S3_ENDPOINT` is required |
 * | `LITHO_S3_REGION`, `LITHO_S3_ACCESS_KEY_ID`, `LITHO_S3_SECRET_ACCESS_KEY`, `LITHO_S3_SESSION_TOKEN`, `LITHO_S3_ACL`, `LITHO_S3_PUBLIC_URL`, `LITHO_S3_FORCE_PATH_STYLE` | the rest of the S3 setup; without `LITHO_S3_ACCESS_KEY_ID`, the standard `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` |
 * | `LITHO_RENDER_LINK_KEY` | the master key of signed render links (else the key file `<dataDir>/secrets/render-link-key`); `LITHO_RENDER_LINK_MAX_SECONDS` the longest `exp` (default 365 days), see render-link-key.ts |
 * | `LITHO_URL_SIGNING_KEY` | the secret that signs app-served file URLs (else the key file in the data directory); `LITHO_URL_SIGNING_KEY_ID` its kid (default `env`), `LITHO_URL_VERIFY_KEYS` older keys that only verify (`kid:secret,…`), see url-signing-keys.ts |
 *
 * An empty variable counts as unset. Configuration is read and checked before any store is
 * created, so a mistake fails at startup with a {@link ConfigError} naming the variable.
 *
 * @module backends
 */
import { chmod, mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { createUrlSigner, type RenderLinkSettings, type UrlSigner } from '@litho/core'
import type { AccountStore, AssetStore, AuthStateStore, DesignStore, FileStore, JobQueue, JobStore, Meter, RetentionIndex } from '@litho/core/contracts'
import { fsRetentionIndex, redisRetentionIndex } from '@litho/storage-adapters/retention-index'
import { fsAssetStore, redisAssetStore } from '@litho/storage-adapters/asset-store'
import { bullmqJobQueue, fsJobQueue } from '@litho/storage-adapters/job-queue'
import { fsJobStore, redisJobStore } from '@litho/storage-adapters/job-store'
import { fsAuthStateStore, redisAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { ConfigError } from './config-error.js'
import { loadRenderLinkKey } from './render-link-key.js'
import { loadUrlSigningKeys } from './url-signing-keys.js'
import { readJobQueueTimings } from './job-queue-config.js'
import {
  fsAccountStore,
  fsDesignStore,
  fsFileStore,
  fsMeter,
  redisAccountStore,
  redisDesignStore,
  redisFileStore,
  redisMeter,
  s3FileStore,
  type S3Acl,
} from '@litho/storage-adapters'

/** The stores and the URL signer of one Litho process. */
export interface LithoBackends {
  designs: DesignStore
  accounts: AccountStore
  files: FileStore
  meter: Meter
  /** The authorization server's state: orgs and signing keys, clients, codes, tokens, sessions. */
  authState: AuthStateStore
  /** Export-job records. */
  jobs: JobStore
  /** Records of stored renders, for the retention sweep (`litho gc`, and periodically in `litho serve`). */
  retention: RetentionIndex
  /** Records of uploaded images (docs/assets.md); their bytes are in `files`. */
  assets: AssetStore
  /** The durable queue that runs export jobs (not started: the server starts it). */
  queue: JobQueue
  /** Signs and verifies the URLs of files the app serves itself (fs and Redis file stores). */
  signer: UrlSigner
  /** The master key of signed render links (render-link-key.ts): keys get link secrets, links are checked. */
  renderLinks: RenderLinkSettings
  /** One line per backend for the startup log, e.g. `designs: fs (/abs/.litho/designs)`; never a secret. */
  describe: string[]
  /** Disposes every store that has `dispose()` (connections, timers). */
  dispose(): Promise<void>
}

/** Options of {@link createBackends}. */
export interface BackendsOptions {
  /** Root of the embedded default backends (the `--data` flag or `LITHO_DATA_DIR`). */
  dataDir: string
  /** Public URL prefix where the app serves stored files, e.g. `http://127.0.0.1:3000/files`. */
  filesBaseUrl: string
  /** Where the `LITHO_*` variables are read from. @default process.env */
  env?: Record<string, string | undefined>
}

export { ConfigError } from './config-error.js'

/** Runs of one export job: up to 3 renders, then up to 8 webhook attempts (with room to spare). */
const JOB_MAX_RUNS = 20

export { SIGNING_KEY_FILE } from './url-signing-keys.js'

/** Redis key prefixes: `:`-separated segments, as every Redis store's `base` option accepts. */
const REDIS_PREFIX_RE = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/

/**
 * Creates the stores of one process from `options.env` (see the module comment for every
 * variable), and the URL signer the app-served file stores sign with.
 *
 * The signing key is `LITHO_URL_SIGNING_KEY` when set. Otherwise it is read from
 * `<dataDir>/secrets/url-signing-key`, which the first process creates (32 random bytes,
 * base64url, mode 0600). **Instances that share Redis must share `LITHO_URL_SIGNING_KEY`:**
 * each would otherwise generate its own key file, and a signed file URL made by one instance
 * would be refused by the others.
 *
 * @throws {ConfigError} when a variable is missing or malformed, naming it.
 * @example
 * const backends = await createBackends({ dataDir: '.litho', filesBaseUrl: 'http://127.0.0.1:3000/files' })
 * for (const line of backends.describe) console.log(line)
 * try { await backends.designs.get('d_8f3k2m9x1q7w') } finally { await backends.dispose() }
 */
export async function createBackends(options: BackendsOptions): Promise<LithoBackends> {
  const env = options.env ?? process.env
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  if (typeof options.dataDir !== 'string' || options.dataDir === '') throw new TypeError('Expected option dataDir (a directory) but received none')
  const dataDir = resolve(options.dataDir)

  // Read and check everything first: a mistake fails before any store exists.
  const redis = readRedisConfig(read)
  const s3 = readS3Config(read)
  const jobTimings = readJobQueueTimings(read)
  // Read once, at start: a rotated key file signs from the next start (url-signing-keys.ts).
  const signing = await loadUrlSigningKeys(read, dataDir)
  const signer: UrlSigner = createUrlSigner({ keys: signing.keys })
  const links = await loadRenderLinkKey(read, dataDir)

  const describe: string[] = []
  const stores: Array<{ dispose?(): Promise<void> }> = []
  const keep = <T extends { dispose?(): Promise<void> }>(store: T, line: string): T => {
    stores.push(store)
    describe.push(line)
    return store
  }

  let designs: DesignStore, accounts: AccountStore, meter: Meter, authState: AuthStateStore, jobs: JobStore, queue: JobQueue, retention: RetentionIndex, assets: AssetStore
  if (redis) {
    const where = `redis (${redis.safeUrl}, prefix ${redis.prefix})`
    designs = keep(redisDesignStore({ url: redis.url, base: `${redis.prefix}:designs` }), `designs: ${where}`)
    accounts = keep(redisAccountStore({ url: redis.url, base: `${redis.prefix}:accounts` }), `accounts: ${where}`)
    meter = keep(redisMeter({ url: redis.url, base: `${redis.prefix}:meter` }), `meter: ${where}`)
    authState = keep(redisAuthStateStore({ url: redis.url, base: `${redis.prefix}:auth` }), `oauth state: ${where}`)
    jobs = keep(redisJobStore({ url: redis.url, base: `${redis.prefix}:jobs` }), `export jobs: ${where}`)
    retention = keep(redisRetentionIndex({ url: redis.url, base: `${redis.prefix}:retention` }), `retention index: ${where}`)
    assets = keep(redisAssetStore({ url: redis.url, base: `${redis.prefix}:assets` }), `assets: ${where}`)
    // Runs: the render retries, then up to 8 webhook attempts.
    queue = bullmqJobQueue({ url: redis.url, prefix: `${redis.prefix}:bull`, maxRuns: JOB_MAX_RUNS, ...jobTimings })
    describe.push(`job queue: bullmq (${redis.safeUrl}, prefix ${redis.prefix}:bull, lock ${jobTimings.lockDurationMs} ms, stalled check ${jobTimings.stalledIntervalMs} ms)`)
  } else {
    designs = keep(fsDesignStore({ base: join(dataDir, 'designs') }), `designs: fs (${join(dataDir, 'designs')})`)
    accounts = keep(fsAccountStore({ base: join(dataDir, 'accounts') }), `accounts: fs (${join(dataDir, 'accounts')})`)
    meter = keep(fsMeter({ base: join(dataDir, 'meter') }), `meter: fs (${join(dataDir, 'meter')})`)
    // It holds the org's private signing keys: readable by this user only.
    await mkdir(join(dataDir, 'auth'), { recursive: true, mode: 0o700 })
    await chmod(join(dataDir, 'auth'), 0o700)
    authState = keep(fsAuthStateStore({ base: join(dataDir, 'auth') }), `oauth state: fs (${join(dataDir, 'auth')})`)
    jobs = keep(fsJobStore({ base: join(dataDir, 'jobs', 'records') }), `export jobs: fs (${join(dataDir, 'jobs', 'records')})`)
    retention = keep(fsRetentionIndex({ base: join(dataDir, 'retention') }), `retention index: fs (${join(dataDir, 'retention')})`)
    assets = keep(fsAssetStore({ base: join(dataDir, 'assets') }), `assets: fs (${join(dataDir, 'assets')})`)
    queue = fsJobQueue({ dir: join(dataDir, 'jobs', 'queue'), maxRuns: JOB_MAX_RUNS })
    describe.push(`job queue: fs (${join(dataDir, 'jobs', 'queue')})`)
  }

  let files: FileStore
  if (s3) {
    files = keep(
      s3FileStore({
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        ...(s3.sessionToken === undefined ? {} : { sessionToken: s3.sessionToken }),
        acl: s3.acl,
        forcePathStyle: s3.forcePathStyle,
        ...(s3.publicUrl === undefined ? {} : { publicBaseUrl: s3.publicUrl }),
      }),
      `files: s3 (bucket ${s3.bucket} at ${s3.endpoint}, region ${s3.region}${s3.sessionToken ? ', session credentials' : ''}${s3.acl === 'none' ? ', no ACLs' : ''}${s3.publicUrl ? `, public ${s3.publicUrl}` : ''})`,
    )
  } else if (redis) {
    files = keep(redisFileStore({ url: redis.url, base: `${redis.prefix}:files`, publicBaseUrl: options.filesBaseUrl, signer }), `files: redis (${redis.safeUrl}, prefix ${redis.prefix})`)
  } else {
    files = keep(fsFileStore({ dir: join(dataDir, 'files'), publicBaseUrl: options.filesBaseUrl, signer }), `files: fs (${join(dataDir, 'files')})`)
  }
  describe.push(`url signing key: ${signing.source}`)
  describe.push(`render link key: ${links.source}`)

  return {
    designs,
    accounts,
    files,
    meter,
    authState,
    jobs,
    queue,
    retention,
    assets,
    signer,
    renderLinks: links.settings,
    describe,
    async dispose() {
      // The queue first (it waits for jobs in flight, which use the stores); then every store
      // gets its turn even when one fails; the first failure is reported.
      const closed = await Promise.allSettled([queue.close()])
      const results = [...closed, ...(await Promise.allSettled(stores.map((store) => store.dispose?.())))]
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected')
      if (failed) throw failed.reason
    },
  }
}

// --- configuration ---

type Read = (name: string) => string | undefined

interface RedisConfig {
  url: string
  /** The URL without its password or user name, for logs. */
  safeUrl: string
  prefix: string
}

function readRedisConfig(read: Read): RedisConfig | undefined {
  const url = read('LITHO_REDIS_URL')
  const prefix = read('LITHO_REDIS_PREFIX') ?? 'litho'
  if (!REDIS_PREFIX_RE.test(prefix) || prefix.length > 100) {
    throw new ConfigError(`LITHO_REDIS_PREFIX: expected ':'-separated segments of [A-Za-z0-9_-] (at most 100 characters), received ${JSON.stringify(prefix.slice(0, 100))}`)
  }
  if (url === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ConfigError('LITHO_REDIS_URL: expected a redis:// or rediss:// URL, received something that is not a URL')
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(`LITHO_REDIS_URL: expected a redis:// or rediss:// URL, received a ${parsed.protocol} URL`)
  }
  // The URL may carry a password: logs get it masked.
  if (parsed.password) parsed.password = '***'
  return { url, safeUrl: parsed.toString(), prefix }
}

interface S3Config {
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  acl: S3Acl
  publicUrl?: string
  forcePathStyle: boolean
}

function readS3Config(read: Read): S3Config | undefined {
  const bucket = read('LITHO_S3_BUCKET')
  if (bucket === undefined) return undefined
  const endpoint = read('LITHO_S3_ENDPOINT')
  if (endpoint === undefined) throw new ConfigError('LITHO_S3_ENDPOINT: required when LITHO_S3_BUCKET is set (the S3 API origin, e.g. https://s3.eu-west-1.amazonaws.com)')
  assertHttpUrl('LITHO_S3_ENDPOINT', endpoint)
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`LITHO_S3_BUCKET: expected an S3 bucket name (3 to 63 of a-z 0-9 . -), received ${JSON.stringify(bucket.slice(0, 70))}`)
  const litho = read('LITHO_S3_ACCESS_KEY_ID')
  const accessKeyId = litho ?? read('AWS_ACCESS_KEY_ID')
  if (accessKeyId === undefined) throw new ConfigError('LITHO_S3_ACCESS_KEY_ID: required when LITHO_S3_BUCKET is set (or AWS_ACCESS_KEY_ID)')
  const secretAccessKey = read('LITHO_S3_SECRET_ACCESS_KEY') ?? read('AWS_SECRET_ACCESS_KEY')
  if (secretAccessKey === undefined) throw new ConfigError('LITHO_S3_SECRET_ACCESS_KEY: required when LITHO_S3_BUCKET is set (or AWS_SECRET_ACCESS_KEY)')
  // A session token belongs to the key id it was issued with: AWS_SESSION_TOKEN (set by STS
  // tooling, instance and task roles) goes with AWS_ACCESS_KEY_ID only, never with a LITHO_S3 key.
  const sessionToken = read('LITHO_S3_SESSION_TOKEN') ?? (litho === undefined ? read('AWS_SESSION_TOKEN') : undefined)
  const acl = read('LITHO_S3_ACL') ?? 'public-read'
  if (acl !== 'public-read' && acl !== 'none') throw new ConfigError(`LITHO_S3_ACL: expected public-read or none, received ${JSON.stringify(acl.slice(0, 30))}`)
  const publicUrl = read('LITHO_S3_PUBLIC_URL')
  if (publicUrl !== undefined) assertHttpUrl('LITHO_S3_PUBLIC_URL', publicUrl)
  const forcePathStyle = readBoolean('LITHO_S3_FORCE_PATH_STYLE', read('LITHO_S3_FORCE_PATH_STYLE'), true)
  return {
    // Trailing slashes; (?<!\/) starts a match only at the first of them, so it stays linear.
    endpoint: endpoint.replace(/(?<!\/)\/+$/, ''),
    bucket,
    region: read('LITHO_S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    ...(sessionToken === undefined ? {} : { sessionToken }),
    acl,
    ...(publicUrl === undefined ? {} : { publicUrl: publicUrl.replace(/(?<!\/)\/+$/, '') }),
    forcePathStyle,
  }
}

function assertHttpUrl(name: string, value: string): void {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    // Not echoed: a mistyped URL may hold credentials.
    throw new ConfigError(`${name}: expected an http(s) URL without query, fragment or credentials`)
  }
}

function readBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback
  const lower = value.toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true
  if (['0', 'false', 'no', 'off'].includes(lower)) return false
  throw new ConfigError(`${name}: expected 1/true or 0/false, received ${JSON.stringify(value.slice(0, 20))}`)
}
