/**
 * The cases of the file-store conformance suite, as data: a stable title, what a case needs
 * (a persistent store, a way to fetch URLs), and a function that throws when the store breaks
 * the contract. `runFileStoreConformance` registers them with vitest.
 *
 * @module file-store/file-store-cases
 */
import type { FileStore } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, type InvalidCode } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** Fetches a URL the way a client would; for app-served stores, the test routes it to the app's verifier. */
export type FetchUrl = (url: string) => Promise<{ status: number; bytes: Uint8Array }>

/** What a case gets. */
export interface FileStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: FileStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<FileStore>
  /** A key unique to this run and `label`, e.g. `r1ab2c/label/3.png`. */
  key: (label: string) => string
  /** Present when the caller passed `fetchUrl`. */
  fetchUrl?: FetchUrl
}

/** One case of the suite. */
export interface FileStoreCase {
  /** Stable title, `file store › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless `store.capabilities.persistent`. */
  needsPersistent?: boolean
  /** Skipped unless the caller passed `fetchUrl`. */
  needsFetch?: boolean
  run: (context: FileStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link FileStoreCaseContext}. */
export function createFileStoreCaseContext(store: FileStore, create: () => FileStore | Promise<FileStore>, fetchUrl?: FetchUrl, prefix = createRunPrefix()): FileStoreCaseContext {
  let sequence = 0
  return { store, create: async () => create(), key: (label) => `${prefix}/${label}/${++sequence}.bin`, fetchUrl }
}

/** Every byte value 0–255, twice, then a run of zeros: text decoding would break it. */
export function everyByte(): Uint8Array {
  const bytes = new Uint8Array(600)
  for (let i = 0; i < 512; i++) bytes[i] = i % 256
  return bytes
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/
const DAY = 86_400_000

/** Every case, in the order they run. */
export const fileStoreCases: readonly FileStoreCase[] = [
  // --- put and get ---
  {
    title: 'file store › put then get returns the bytes and the record (binary, every byte value)',
    async run({ store, key }) {
      const k = key('round-trip')
      const bytes = everyByte()
      const before = Date.now()
      const file = await store.put(k, bytes, { contentType: 'image/png', visibility: 'private' })
      expect(file).toMatchObject({ key: k, contentType: 'image/png', size: 600, visibility: 'private' })
      expect(file.createdAt).toMatch(ISO_RE)
      // Some backends keep whole seconds: allow a second of rounding.
      expect(Date.parse(file.createdAt)).toBeGreaterThanOrEqual(before - 1_000)
      expect(Date.parse(file.createdAt)).toBeLessThanOrEqual(Date.now() + 1_000)
      const found = await store.get(k)
      expect(found).not.toBeNull()
      expect(found!.file).toEqual(file)
      expect(found!.bytes).toBeInstanceOf(Uint8Array)
      expect(Buffer.from(found!.bytes).equals(Buffer.from(bytes)), 'bytes read back equal the bytes written').toBe(true)
    },
  },
  {
    title: 'file store › visibility and content type are kept per file; an empty file round-trips',
    async run({ store, key }) {
      const pub = key('public')
      const empty = key('empty')
      await store.put(pub, new Uint8Array([1, 2, 3]), { contentType: 'image/svg+xml', visibility: 'public' })
      await store.put(empty, new Uint8Array(0), { contentType: 'application/pdf', visibility: 'private' })
      expect((await store.get(pub))?.file).toMatchObject({ contentType: 'image/svg+xml', visibility: 'public', size: 3 })
      const found = await store.get(empty)
      expect(found?.file).toMatchObject({ contentType: 'application/pdf', visibility: 'private', size: 0 })
      expect(found?.bytes.byteLength).toBe(0)
    },
  },
  {
    title: 'file store › put replaces a file: bytes, content type and visibility',
    async run({ store, key }) {
      const k = key('replace')
      await store.put(k, new Uint8Array(1000).fill(7), { contentType: 'image/png', visibility: 'public' })
      const second = await store.put(k, new Uint8Array([9, 8]), { contentType: 'image/webp', visibility: 'private' })
      const found = await store.get(k)
      expect(found?.file).toEqual(second)
      expect([...found!.bytes]).toEqual([9, 8])
    },
  },
  {
    title: 'file store › the bytes given to put and returned by get are copies',
    async run({ store, key }) {
      const k = key('copies')
      const bytes = new Uint8Array([1, 2, 3])
      await store.put(k, bytes, { contentType: 'image/png', visibility: 'private' })
      bytes[0] = 99
      const first = await store.get(k)
      expect([...first!.bytes]).toEqual([1, 2, 3])
      first!.bytes[1] = 99
      expect([...(await store.get(k))!.bytes]).toEqual([1, 2, 3])
    },
  },
  {
    title: 'file store › get of an unknown key returns null',
    async run({ store, key }) {
      expect(await store.get(key('unknown'))).toBeNull()
    },
  },
  {
    title: 'file store › a key and a longer key under it are separate files',
    async run({ store, key }) {
      const k = key('nested').replace(/\.bin$/, '')
      await store.put(k, new Uint8Array([1]), { contentType: 'image/png', visibility: 'private' })
      await store.put(`${k}/inner.png`, new Uint8Array([2]), { contentType: 'image/png', visibility: 'private' })
      await store.put(`${k}/.dot...~_-x`, new Uint8Array([3]), { contentType: 'image/png', visibility: 'private' })
      expect([...(await store.get(k))!.bytes]).toEqual([1])
      expect([...(await store.get(`${k}/inner.png`))!.bytes]).toEqual([2])
      expect([...(await store.get(`${k}/.dot...~_-x`))!.bytes]).toEqual([3])
    },
  },

  // --- delete ---
  {
    title: 'file store › delete returns true and removes the file; a second delete returns false',
    async run({ store, key }) {
      const k = key('delete')
      await store.put(k, new Uint8Array([1]), { contentType: 'image/png', visibility: 'public' })
      expect(await store.delete(k)).toBe(true)
      expect(await store.get(k)).toBeNull()
      expect(await store.delete(k)).toBe(false)
      expect(await store.delete(key('delete-unknown'))).toBe(false)
    },
  },

  // --- URLs ---
  {
    title: 'file store › publicUrl is stable and ends with the key',
    async run({ store, key }) {
      const k = key('public-url')
      expect(store.publicUrl(k)).toBe(store.publicUrl(k))
      expect(store.publicUrl(k).endsWith(`/${k}`)).toBe(true)
      expect(() => new URL(store.publicUrl(k))).not.toThrow()
    },
  },
  {
    title: 'file store › signedUrl accepts lifetimes of 1 s to 7 days and rejects 0 s and 7 days + 1 s with a TypeError',
    async run({ store, key }) {
      const k = key('lifetime')
      const now = new Date()
      const at = (ms: number) => new Date(now.getTime() + ms)
      expect(typeof (await store.signedUrl(k, { now, expiresAt: at(1_000) }))).toBe('string')
      expect(typeof (await store.signedUrl(k, { now, expiresAt: at(7 * DAY) }))).toBe('string')
      await expectInvalid([
        ['0 s', () => store.signedUrl(k, { now, expiresAt: now }), 'ERR_INVALID_ARG_VALUE'],
        ['in the past', () => store.signedUrl(k, { now, expiresAt: at(-60_000) }), 'ERR_INVALID_ARG_VALUE'],
        ['7 days + 1 s', () => store.signedUrl(k, { now, expiresAt: at(7 * DAY + 1_000) }), 'ERR_INVALID_ARG_VALUE'],
        ['an invalid Date', () => store.signedUrl(k, { now, expiresAt: new Date(Number.NaN) }), 'ERR_INVALID_ARG_VALUE'],
        ['expiresAt a number', () => store.signedUrl(k, { now, expiresAt: at(60_000).getTime() as never }), 'ERR_INVALID_ARG_TYPE'],
      ])
    },
  },
  {
    title: 'file store › a signed URL serves the file',
    needsFetch: true,
    async run({ store, key, fetchUrl }) {
      const k = key('signed')
      const bytes = everyByte()
      await store.put(k, bytes, { contentType: 'image/png', visibility: 'private' })
      const now = new Date()
      const url = await store.signedUrl(k, { now, expiresAt: new Date(now.getTime() + 60_000) })
      const response = await fetchUrl!(url)
      expect(response.status).toBe(200)
      expect(Buffer.from(response.bytes).equals(Buffer.from(bytes))).toBe(true)
    },
  },
  {
    title: 'file store › a signed URL edited to reach another existing file is refused',
    needsFetch: true,
    async run({ store, key, fetchUrl }) {
      const mine = key('edit-mine')
      const other = key('edit-other')
      await store.put(mine, new Uint8Array([1]), { contentType: 'image/png', visibility: 'private' })
      await store.put(other, new Uint8Array([2]), { contentType: 'image/png', visibility: 'private' })
      const now = new Date()
      const url = await store.signedUrl(mine, { now, expiresAt: new Date(now.getTime() + 60_000) })
      expect(url).toContain(mine)
      const edited = url.replace(mine, other)
      const response = await fetchUrl!(edited)
      expect(response.status, 'status of the edited URL').toBeGreaterThanOrEqual(400)
      expect([...response.bytes]).not.toEqual([2])
      // The original still works: the refusal is about the edit.
      expect((await fetchUrl!(url)).status).toBe(200)
    },
  },
  {
    title: 'file store › an expired signed URL is refused',
    needsFetch: true,
    async run({ store, key, fetchUrl }) {
      const k = key('expired')
      await store.put(k, new Uint8Array([1, 2, 3]), { contentType: 'image/png', visibility: 'private' })
      // Signed 10 s ago for 5 s: expired for 5 s already, whoever checks it (S3 or the app).
      const now = new Date(Date.now() - 10_000)
      const url = await store.signedUrl(k, { now, expiresAt: new Date(now.getTime() + 5_000) })
      const response = await fetchUrl!(url)
      expect(response.status, 'status of the expired URL').toBeGreaterThanOrEqual(400)
      expect([...response.bytes]).not.toEqual([1, 2, 3])
    },
  },

  // --- persistence ---
  {
    title: 'file store › a new store over the same storage sees earlier files',
    needsPersistent: true,
    async run({ create, key }) {
      const k = key('persistent')
      const first = await create()
      let file
      try {
        file = await first.put(k, everyByte(), { contentType: 'image/jpeg', visibility: 'public' })
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        const found = await second.get(k)
        expect(found?.file).toEqual(file)
        expect(Buffer.from(found!.bytes).equals(Buffer.from(everyByte()))).toBe(true)
        expect(await second.delete(k)).toBe(true)
      } finally {
        await second.dispose?.()
      }
    },
  },

  // --- input validation ---
  {
    title: 'file store › invalid keys reject with a TypeError before any I/O',
    async run({ store, key }) {
      const now = new Date()
      const expiresAt = new Date(now.getTime() + 60_000)
      const bad: Array<[string, unknown, InvalidCode]> = [
        ['../x', '../x', 'ERR_INVALID_ARG_VALUE'],
        ['a/../b', 'a/../b', 'ERR_INVALID_ARG_VALUE'],
        ['./x', './x', 'ERR_INVALID_ARG_VALUE'],
        ['a//b', 'a//b', 'ERR_INVALID_ARG_VALUE'],
        ['%2e%2e/x', '%2e%2e/x', 'ERR_INVALID_ARG_VALUE'],
        ['a%2Fb', 'a%2Fb', 'ERR_INVALID_ARG_VALUE'],
        ['/abs', '/abs', 'ERR_INVALID_ARG_VALUE'],
        ['trailing slash', 'a/', 'ERR_INVALID_ARG_VALUE'],
        ['backslash', 'a\\b', 'ERR_INVALID_ARG_VALUE'],
        ['space', 'a b', 'ERR_INVALID_ARG_VALUE'],
        ['colon', 'a:b', 'ERR_INVALID_ARG_VALUE'],
        ['query', 'a?b', 'ERR_INVALID_ARG_VALUE'],
        ['non-ASCII', 'é.png', 'ERR_INVALID_ARG_VALUE'],
        ['empty', '', 'ERR_INVALID_ARG_VALUE'],
        ['too long', 'x'.repeat(1100), 'ERR_INVALID_ARG_VALUE'],
        ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
        ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
      ]
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of bad) {
        const k = value as string
        cases.push(
          [`put ${label}`, () => store.put(k, new Uint8Array([1]), { contentType: 'image/png', visibility: 'public' }), code],
          [`get ${label}`, () => store.get(k), code],
          [`delete ${label}`, () => store.delete(k), code],
          [`signedUrl ${label}`, () => store.signedUrl(k, { now, expiresAt }), code],
          [`publicUrl ${label}`, async () => store.publicUrl(k), code],
        )
      }
      await expectInvalid(cases)
      // Nothing was written under a valid neighbour either.
      expect(await store.get(key('invalid'))).toBeNull()
    },
  },
  {
    title: 'file store › put rejects bad bytes, content type and visibility with a TypeError and writes nothing',
    async run({ store, key }) {
      const k = key('invalid-put')
      const put = (bytes: unknown, options: unknown) => () => store.put(k, bytes as Uint8Array, options as { contentType: string; visibility: 'public' })
      const ok = { contentType: 'image/png', visibility: 'public' }
      await expectInvalid([
        ['bytes a string', put('abc', ok), 'ERR_INVALID_ARG_TYPE'],
        ['bytes an array', put([1, 2], ok), 'ERR_INVALID_ARG_TYPE'],
        ['contentType missing', put(new Uint8Array(1), { visibility: 'public' }), 'ERR_INVALID_ARG_TYPE'],
        ['contentType with a newline', put(new Uint8Array(1), { ...ok, contentType: 'image/png\r\nx-evil: 1' }), 'ERR_INVALID_ARG_VALUE'],
        ['contentType without a slash', put(new Uint8Array(1), { ...ok, contentType: 'png' }), 'ERR_INVALID_ARG_VALUE'],
        ['visibility unknown', put(new Uint8Array(1), { ...ok, visibility: 'secret' }), 'ERR_INVALID_ARG_VALUE'],
        ['visibility missing', put(new Uint8Array(1), { contentType: 'image/png' }), 'ERR_INVALID_ARG_TYPE'],
        ['options missing', put(new Uint8Array(1), undefined), 'ERR_INVALID_ARG_TYPE'],
      ])
      expect(await store.get(k)).toBeNull()
    },
  },
]
