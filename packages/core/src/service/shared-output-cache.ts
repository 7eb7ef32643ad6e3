/**
 * The shared tier of the output cache: entries in a file store, one per slot, so several
 * instances serve each other's renders and the store stays bounded without a listing.
 *
 * An entry is `LOC1`, a 4-byte big-endian header length, the header (JSON: the full output key,
 * the expiry, the entry's metadata) and the bytes. A slot holds whichever key was written last;
 * a reader checks the key in the header, so a slot taken over by another key is a miss, never
 * the wrong image.
 *
 * @module service/shared-output-cache
 */
import type { FileStore } from '../contracts/file-store.js'
import type { OutputCacheEntry } from './output-cache.js'

const MAGIC = 'LOC1'
/** A header past this is not ours (an entry's metadata is well under 64 KiB). */
const MAX_HEADER_BYTES = 64 * 1024

interface Header {
  key: string
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null
  meta: Omit<OutputCacheEntry, 'bytes'>
}

/** The file store key of `key`'s slot, e.g. `output-cache/1234.bin`. */
export function sharedEntryKey(prefix: string, key: string, slots: number): string {
  const hash = Buffer.from(key, 'base64url')
  // 48 bits of a SHA-256 are uniform enough for any slot count.
  const slot = hash.length >= 6 ? hash.readUIntBE(0, 6) % slots : 0
  return `${prefix}/${slot}.bin`
}

/** Writes `entry` into its slot (private: never reachable by a public URL). */
export async function writeSharedEntry(files: FileStore, fileKey: string, key: string, entry: OutputCacheEntry, expiresAt: number | null): Promise<void> {
  const { bytes, ...meta } = entry
  const header = Buffer.from(JSON.stringify({ key, expiresAt, meta } satisfies Header))
  const out = new Uint8Array(8 + header.byteLength + bytes.byteLength)
  out.set(Buffer.from(MAGIC), 0)
  new DataView(out.buffer).setUint32(4, header.byteLength)
  out.set(header, 8)
  out.set(bytes, 8 + header.byteLength)
  await files.put(fileKey, out, { contentType: 'application/octet-stream', visibility: 'private' })
}

/** Reads `key` from its slot: the entry and its expiry, or `undefined` (empty, another key, expired, unreadable). */
export async function readSharedEntry(files: FileStore, fileKey: string, key: string, now: number): Promise<{ entry: OutputCacheEntry; expiresAt: number | null } | undefined> {
  const stored = await files.get(fileKey)
  if (stored === null) return undefined
  const raw = stored.bytes
  if (raw.byteLength < 8 || Buffer.from(raw.subarray(0, 4)).toString('latin1') !== MAGIC) return undefined
  const length = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(4)
  if (length > MAX_HEADER_BYTES || 8 + length > raw.byteLength) return undefined
  let header: Header
  try {
    header = JSON.parse(Buffer.from(raw.subarray(8, 8 + length)).toString('utf8')) as Header
  } catch {
    return undefined
  }
  if (header.key !== key) return undefined
  if (header.expiresAt !== null && !(header.expiresAt > now)) return undefined
  return { entry: { ...header.meta, bytes: raw.subarray(8 + length) }, expiresAt: header.expiresAt }
}
