import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, SIGNING_KEY_FILE, createBackends, type BackendsOptions, type LithoBackends } from '../src/index.js'

const FILES = 'http://127.0.0.1:3000/files'
const REDIS_URL = 'redis://127.0.0.1:6379'
/** A unique prefix per run, so parallel runs and leftovers never collide; removed afterwards. */
const REDIS_PREFIX = `litho-test:http-h3-${randomBytes(6).toString('hex')}`
const NOW = '2026-11-05T10:00:00.000Z'

const tempDir = () => mkdtempSync(join(tmpdir(), 'litho-backends-'))
const open: LithoBackends[] = []
const make = async (env: Record<string, string> = {}, options: Partial<BackendsOptions> = {}): Promise<LithoBackends> => {
  const backends = await createBackends({ dataDir: options.dataDir ?? tempDir(), filesBaseUrl: FILES, env })
  open.push(backends)
  return backends
}
const user = (id: string, email: string) => ({ id, email, passwordHash: 'scrypt$N=16384,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', plan: 'free' as const, createdAt: NOW, updatedAt: NOW })
const design = (id: string, ownerId: string) => ({ id, ownerId, name: 'Card', renderCode: `rc_${id}_0123456789`, design: null, draft: { version: 2, width: 10, height: 10 }, createdAt: NOW, updatedAt: NOW })

/** Sends one command to Redis (RESP, no client library: this package has none) and returns the raw reply. */
function redisCommand(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(6379, '127.0.0.1')
    let reply = ''
    socket.on('error', reject)
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8')
      if (reply.endsWith('\r\n')) socket.end(() => resolve(reply))
    })
    socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`)
  })
}

afterAll(async () => {
  await Promise.all(open.map((backends) => backends.dispose()))
  // Everything this file wrote to Redis lives under REDIS_PREFIX.
  await redisCommand('EVAL', "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) n = n + 1 end return n", '0', `${REDIS_PREFIX}:*`)
})

describe('createBackends › the embedded default', () => {
  it('puts designs, accounts, meter, OAuth state and files on the filesystem under dataDir', async () => {
    const dataDir = tempDir()
    const backends = await make({}, { dataDir })
    expect([backends.designs.name, backends.accounts.name, backends.meter.name, backends.authState.name, backends.files.name]).toEqual(['fs', 'fs', 'fs', 'fs', 'fs'])
    expect(backends.describe).toEqual([
      `designs: fs (${join(dataDir, 'designs')})`,
      `accounts: fs (${join(dataDir, 'accounts')})`,
      `meter: fs (${join(dataDir, 'meter')})`,
      `oauth state: fs (${join(dataDir, 'auth')})`,
      `export jobs: fs (${join(dataDir, 'jobs', 'records')})`,
      `retention index: fs (${join(dataDir, 'retention')})`,
      `assets: fs (${join(dataDir, 'assets')})`,
      `job queue: fs (${join(dataDir, 'jobs', 'queue')})`,
      `files: fs (${join(dataDir, 'files')})`,
      `url signing key: file (${join(dataDir, SIGNING_KEY_FILE)})`,
      `render link key: file (${join(dataDir, 'secrets', 'render-link-key')}), links live at most 31536000 s`,
    ])
    await backends.designs.create(design('d_1', 'u_1'))
    await backends.accounts.createUser(user('u_1', 'ann@example.com'))
    await backends.meter.consume({ subject: 'u_1', window: '2026-11', amount: 1, limit: 10, id: 'r1', expiresAt: new Date('2026-12-01') })
    await backends.files.put('u_1/r1.png', new Uint8Array([1, 2, 3]), { contentType: 'image/png', visibility: 'private' })
    await backends.authState.set('meta.check', { ok: true })
    for (const dir of ['designs', 'accounts', 'meter', 'auth', 'files']) expect(existsSync(join(dataDir, dir)), dir).toBe(true)

    // Another instance on the same directory (another process, in production) sees it all.
    const other = await make({}, { dataDir })
    expect((await other.designs.get('d_1'))?.ownerId).toBe('u_1')
    expect((await other.accounts.findUserByEmail('ann@example.com'))?.id).toBe('u_1')
    expect(await other.meter.usage({ subject: 'u_1', window: '2026-11' })).toBe(1)
    expect((await other.files.get('u_1/r1.png'))?.file.size).toBe(3)
    expect(await other.authState.get('meta.check')).toEqual({ ok: true })
  })

  it('signs file URLs with the signer it returns', async () => {
    const backends = await make()
    const url = new URL(await backends.files.signedUrl('u_1/r1.png', { expiresAt: new Date(Date.now() + 60_000), now: new Date() }))
    expect(`${url.origin}${url.pathname}`).toBe(`${FILES}/u_1/r1.png`)
    expect(backends.signer.verify({ path: '/u_1/r1.png', query: url.searchParams, now: new Date() })).toMatchObject({ ok: true })
  })

  it('creates the signing key file once (mode 0600, 32 random bytes) and reuses it', async () => {
    const dataDir = tempDir()
    const first = await make({}, { dataDir })
    const file = join(dataDir, SIGNING_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const text = readFileSync(file, 'utf8').trim()
    expect(text).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(text, 'base64url')).toHaveLength(32)

    const second = await make({}, { dataDir })
    expect(readFileSync(file, 'utf8').trim()).toBe(text)
    const now = new Date()
    const query = first.signer.sign({ path: '/a.png', expiresAt: new Date(now.getTime() + 60_000), now })
    expect(query.get('kid')).toBe('k1')
    expect(second.signer.verify({ path: '/a.png', query, now })).toMatchObject({ ok: true })
  })

  it('instances starting at once on a new directory end up with one key', async () => {
    const dataDir = tempDir()
    const all = await Promise.all(Array.from({ length: 6 }, () => make({}, { dataDir })))
    const now = new Date()
    const query = all[0]!.signer.sign({ path: '/a.png', expiresAt: new Date(now.getTime() + 60_000), now })
    for (const backends of all) expect(backends.signer.verify({ path: '/a.png', query, now })).toMatchObject({ ok: true })
  })

  it('a corrupt key file is a ConfigError naming the file', async () => {
    const dataDir = tempDir()
    await make({}, { dataDir })
    writeFileSync(join(dataDir, SIGNING_KEY_FILE), 'short\n')
    await expect(make({}, { dataDir })).rejects.toThrow(new RegExp(`${join(dataDir, SIGNING_KEY_FILE).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: expected a URL-signing key of at least 32 bytes`))
  })
})

describe('createBackends › LITHO_URL_SIGNING_KEY', () => {
  const KEY = randomBytes(32).toString('base64url')

  it('signs with the env key (kid "env") and writes no key file; the key never shows', async () => {
    const dataDir = tempDir()
    const backends = await make({ LITHO_URL_SIGNING_KEY: KEY }, { dataDir })
    expect(existsSync(join(dataDir, SIGNING_KEY_FILE))).toBe(false)
    expect(backends.describe).toContain('url signing key: LITHO_URL_SIGNING_KEY')
    expect(backends.describe.join('\n')).not.toContain(KEY)
    const now = new Date()
    const query = backends.signer.sign({ path: '/a.png', expiresAt: new Date(now.getTime() + 60_000), now })
    expect(query.get('kid')).toBe('env')
    const other = await make({ LITHO_URL_SIGNING_KEY: KEY })
    expect(other.signer.verify({ path: '/a.png', query, now })).toMatchObject({ ok: true })
  })

  it('a key shorter than 32 bytes is refused, naming the variable and not the key', async () => {
    const short = 'x'.repeat(31)
    const error = await make({ LITHO_URL_SIGNING_KEY: short }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(/^LITHO_URL_SIGNING_KEY: expected at least 32 bytes of random secret but received 31/)
    expect((error as Error).message).not.toContain(short)
  })

  it('a long key that is not random is refused too', async () => {
    await expect(make({ LITHO_URL_SIGNING_KEY: 'a'.repeat(40) })).rejects.toThrow(/^LITHO_URL_SIGNING_KEY: expected the key to be random/)
  })
})

describe('createBackends › S3', () => {
  const S3 = { LITHO_S3_BUCKET: 'renders', LITHO_S3_ENDPOINT: 'http://127.0.0.1:9000', LITHO_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', LITHO_S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-secret' }

  it.each([
    ['LITHO_S3_BUCKET without LITHO_S3_ENDPOINT', { LITHO_S3_BUCKET: 'renders' }, /^LITHO_S3_ENDPOINT: required when LITHO_S3_BUCKET is set/],
    ['no access key id', { ...S3, LITHO_S3_ACCESS_KEY_ID: '' }, /^LITHO_S3_ACCESS_KEY_ID: required when LITHO_S3_BUCKET is set \(or AWS_ACCESS_KEY_ID\)/],
    ['no secret access key', { ...S3, LITHO_S3_SECRET_ACCESS_KEY: '' }, /^LITHO_S3_SECRET_ACCESS_KEY: required when LITHO_S3_BUCKET is set/],
    ['an endpoint that is not a URL', { ...S3, LITHO_S3_ENDPOINT: 's3.example.com' }, /^LITHO_S3_ENDPOINT: expected an http\(s\) URL/],
    ['a bad bucket name', { ...S3, LITHO_S3_BUCKET: 'My_Bucket' }, /^LITHO_S3_BUCKET: expected an S3 bucket name/],
    ['a bad LITHO_S3_ACL', { ...S3, LITHO_S3_ACL: 'public' }, /^LITHO_S3_ACL: expected public-read or none, received "public"/],
    ['a bad LITHO_S3_FORCE_PATH_STYLE', { ...S3, LITHO_S3_FORCE_PATH_STYLE: 'maybe' }, /^LITHO_S3_FORCE_PATH_STYLE: expected 1\/true or 0\/false, received "maybe"/],
  ])('%s is a ConfigError naming the variable', async (_, env, message) => {
    const error = await make(env).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
  })

  it('puts files on S3 (path-style by default) and never shows the secret', async () => {
    const backends = await make(S3)
    expect([backends.files.name, backends.designs.name]).toEqual(['s3', 'fs'])
    expect(backends.files.publicUrl('a/b.png')).toBe('http://127.0.0.1:9000/renders/a/b.png')
    expect(backends.describe).toContain('files: s3 (bucket renders at http://127.0.0.1:9000, region us-east-1)')
    expect(backends.describe.join('\n')).not.toMatch(/wJalr|AKIDEXAMPLE/)
  })

  it('falls back to AWS_* credentials; LITHO_S3_PUBLIC_URL and LITHO_S3_FORCE_PATH_STYLE=0 are honoured', async () => {
    const { LITHO_S3_ACCESS_KEY_ID: id, LITHO_S3_SECRET_ACCESS_KEY: secret, ...rest } = S3
    const virtual = await make({ ...rest, AWS_ACCESS_KEY_ID: id, AWS_SECRET_ACCESS_KEY: secret, LITHO_S3_FORCE_PATH_STYLE: 'false', LITHO_S3_ENDPOINT: 'https://s3.example.com' })
    expect(virtual.files.publicUrl('a.png')).toBe('https://renders.s3.example.com/a.png')
    const cdn = await make({ ...S3, LITHO_S3_PUBLIC_URL: 'https://cdn.example.com/renders/' })
    expect(cdn.files.publicUrl('a.png')).toBe('https://cdn.example.com/renders/a.png')
    const presigned = new URL(await cdn.files.signedUrl('a.png', { expiresAt: new Date(Date.now() + 60_000), now: new Date() }))
    expect(presigned.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/)
  })
})

describe('createBackends › S3 session credentials and ACLs', () => {
  const S3 = { LITHO_S3_BUCKET: 'renders', LITHO_S3_ENDPOINT: 'http://127.0.0.1:9000' }
  const presign = async (env: Record<string, string>) => {
    const backends = await make(env)
    return { backends, url: new URL(await backends.files.signedUrl('a.png', { expiresAt: new Date(Date.now() + 60_000), now: new Date() })) }
  }

  it('LITHO_S3_SESSION_TOKEN signs with the token (in the presigned query) and is never shown', async () => {
    const { backends, url } = await presign({ ...S3, LITHO_S3_ACCESS_KEY_ID: 'ASIALITHO', LITHO_S3_SECRET_ACCESS_KEY: 's', LITHO_S3_SESSION_TOKEN: 'litho-session-token' })
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('litho-session-token')
    expect(backends.describe).toContain('files: s3 (bucket renders at http://127.0.0.1:9000, region us-east-1, session credentials)')
    expect(backends.describe.join('\n')).not.toContain('litho-session-token')
  })

  it('without LITHO_S3_* credentials, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN are used together', async () => {
    const { url } = await presign({ ...S3, AWS_ACCESS_KEY_ID: 'ASIAROLE', AWS_SECRET_ACCESS_KEY: 's', AWS_SESSION_TOKEN: 'role-session-token' })
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^ASIAROLE\//)
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('role-session-token')
  })

  it('AWS_SESSION_TOKEN is not paired with a LITHO_S3_ACCESS_KEY_ID (it belongs to another key)', async () => {
    const { url } = await presign({ ...S3, LITHO_S3_ACCESS_KEY_ID: 'AKIALONG', LITHO_S3_SECRET_ACCESS_KEY: 's', AWS_SESSION_TOKEN: 'role-session-token' })
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIALONG\//)
    expect(url.searchParams.has('X-Amz-Security-Token')).toBe(false)
  })

  it('LITHO_S3_ACL=none is said at startup', async () => {
    const backends = await make({ ...S3, LITHO_S3_ACCESS_KEY_ID: 'AKIA', LITHO_S3_SECRET_ACCESS_KEY: 's', LITHO_S3_ACL: 'none', LITHO_S3_PUBLIC_URL: 'https://cdn.example.com' })
    expect(backends.describe).toContain('files: s3 (bucket renders at http://127.0.0.1:9000, region us-east-1, no ACLs, public https://cdn.example.com)')
  })
})

describe('createBackends › Redis', () => {
  const env = { LITHO_REDIS_URL: REDIS_URL, LITHO_REDIS_PREFIX: REDIS_PREFIX }

  it('puts designs, accounts, meter and files on Redis, shared by every instance', async () => {
    const [a, b] = await Promise.all([make(env), make(env)])
    expect([a.designs.name, a.accounts.name, a.meter.name, a.files.name]).toEqual(['redis', 'redis', 'redis', 'redis'])
    expect(a.describe).toContain(`designs: redis (${REDIS_URL}, prefix ${REDIS_PREFIX})`)
    expect(a.describe).toContain(`oauth state: redis (${REDIS_URL}, prefix ${REDIS_PREFIX})`)
    expect(a.describe).toContain(`retention index: redis (${REDIS_URL}, prefix ${REDIS_PREFIX})`)
    expect(a.describe).toContain(`assets: redis (${REDIS_URL}, prefix ${REDIS_PREFIX})`)
    expect(a.describe).toContain(`job queue: bullmq (${REDIS_URL}, prefix ${REDIS_PREFIX}:bull, lock 10000 ms, stalled check 5000 ms)`)
    // Real round trips (Redis must be there: this never skips), seen by the other instance.
    await a.designs.create(design('d_redis', 'u_redis'))
    await a.accounts.createUser(user('u_redis', 'redis@example.com'))
    await a.meter.consume({ subject: 'u_redis', window: '2026-11', amount: 2, limit: 10, id: 'r1', expiresAt: new Date(Date.now() + 60_000) })
    await a.files.put('u_redis/r1.png', new Uint8Array([9]), { contentType: 'image/png', visibility: 'public' })
    expect((await b.designs.get('d_redis'))?.ownerId).toBe('u_redis')
    expect((await b.accounts.findUserByEmail('redis@example.com'))?.id).toBe('u_redis')
    expect(await b.meter.usage({ subject: 'u_redis', window: '2026-11' })).toBe(2)
    expect((await b.files.get('u_redis/r1.png'))?.bytes).toEqual(new Uint8Array([9]))
    // Under the prefix, one namespace per store.
    expect(await redisCommand('EXISTS', `${REDIS_PREFIX}:designs:d:d_redis`)).toBe(':1\r\n')
    expect(await redisCommand('EXISTS', `${REDIS_PREFIX}:accounts:u:u_redis`)).toBe(':1\r\n')
  })

  it('S3 takes the files; Redis keeps the rest', async () => {
    const backends = await make({ ...env, LITHO_S3_BUCKET: 'renders', LITHO_S3_ENDPOINT: 'http://127.0.0.1:9000', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })
    expect([backends.designs.name, backends.accounts.name, backends.meter.name, backends.files.name]).toEqual(['redis', 'redis', 'redis', 's3'])
  })

  it('LITHO_JOB_LOCK_MS and LITHO_JOB_STALLED_CHECK_MS set the job queue timings, at their bounds', async () => {
    const low = await make({ ...env, LITHO_JOB_LOCK_MS: '1000', LITHO_JOB_STALLED_CHECK_MS: '500' })
    expect(low.describe).toContain(`job queue: bullmq (${REDIS_URL}, prefix ${REDIS_PREFIX}:bull, lock 1000 ms, stalled check 500 ms)`)
    const high = await make({ ...env, LITHO_JOB_LOCK_MS: '3600000', LITHO_JOB_STALLED_CHECK_MS: '3600000' })
    expect(high.describe).toContain(`job queue: bullmq (${REDIS_URL}, prefix ${REDIS_PREFIX}:bull, lock 3600000 ms, stalled check 3600000 ms)`)
  })

  it('the startup log masks a password in the URL', async () => {
    const backends = await make({ LITHO_REDIS_URL: 'redis://:hunter2@127.0.0.1:6379/0', LITHO_REDIS_PREFIX: REDIS_PREFIX })
    expect(backends.describe.join('\n')).not.toContain('hunter2')
    expect(backends.describe[0]).toBe(`designs: redis (redis://:***@127.0.0.1:6379/0, prefix ${REDIS_PREFIX})`)
  })

  it.each([
    ['a URL that is not redis://', { LITHO_REDIS_URL: 'http://127.0.0.1:6379' }, /^LITHO_REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL, received a http: URL/],
    ['a prefix with a space', { LITHO_REDIS_URL: REDIS_URL, LITHO_REDIS_PREFIX: 'my app' }, /^LITHO_REDIS_PREFIX: expected ':'-separated segments of \[A-Za-z0-9_-\]/],
    ['a job lock under 1000 ms', { LITHO_REDIS_URL: REDIS_URL, LITHO_JOB_LOCK_MS: '999' }, /^LITHO_JOB_LOCK_MS: expected whole milliseconds from 1000 to 3600000, received "999"/],
    ['a job lock over an hour', { LITHO_REDIS_URL: REDIS_URL, LITHO_JOB_LOCK_MS: '3600001' }, /^LITHO_JOB_LOCK_MS: expected whole milliseconds from 1000 to 3600000, received "3600001"/],
    ['a stalled check under 500 ms', { LITHO_REDIS_URL: REDIS_URL, LITHO_JOB_STALLED_CHECK_MS: '499' }, /^LITHO_JOB_STALLED_CHECK_MS: expected whole milliseconds from 500 to 3600000, received "499"/],
    ['a stalled check that is not whole milliseconds', { LITHO_REDIS_URL: REDIS_URL, LITHO_JOB_STALLED_CHECK_MS: '2.5' }, /^LITHO_JOB_STALLED_CHECK_MS: expected whole milliseconds from 500 to 3600000, received "2.5"/],
  ])('%s is a ConfigError naming the variable', async (_, badEnv, message) => {
    await expect(make(badEnv)).rejects.toThrow(message)
  })

  it('dispose closes every store', async () => {
    const backends = await make(env)
    await backends.designs.get('d_none')
    await backends.dispose()
    await expect(backends.designs.get('d_none')).rejects.toThrow(/disposed/)
  })
})
