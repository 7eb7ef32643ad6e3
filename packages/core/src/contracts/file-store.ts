/**
 * The file store port: stored renders, delivered by public URL (`hosted`) or by expiring
 * signed URL (`signed`).
 *
 * @module contracts/file-store
 */

/** Who may fetch a file: anyone with its URL (`public`), or only with a signed URL (`private`). */
export type FileVisibility = 'public' | 'private'

/** A stored file's record (the `file` object of a render result). */
export interface StoredFile {
  /** `<segment>/<segment>/…`, segments of `[A-Za-z0-9._~-]`, never `.` or `..` (see `canonicalPath`). */
  key: string
  contentType: string
  /** Bytes. */
  size: number
  visibility: FileVisibility
  /** ISO 8601, set by the store. */
  createdAt: string
}

/**
 * Stores files. Every implementation passes the file-store suite of `@litho/testing`
 * (`runFileStoreConformance`).
 *
 * Behaviour:
 * - `put` stores the bytes under `key`, replacing a file there, and returns its record.
 * - `get` returns the bytes and record as stored, or `null`; `delete` returns false when
 *   nothing was there. Reads see their own writes. Where the backend cannot say whether it
 *   deleted something (S3 answers 204 either way), the answer is best effort (a HEAD first),
 *   and a concurrent delete may make both calls return true.
 * - `publicUrl(key)` is the URL of a `public` file: stable, no expiry. It does no I/O and
 *   throws a TypeError synchronously for an invalid key.
 * - `signedUrl(key, { expiresAt, now })` is a URL that serves the file until `expiresAt` and
 *   then stops working, and that cannot be edited to reach another file. Lifetimes are 1 s
 *   to 7 days (a TypeError `ERR_INVALID_ARG_VALUE` otherwise). With `capabilities.presigned`
 *   the backend itself checks it (S3); otherwise the app serves it and checks the signature
 *   (`createUrlSigner`) before calling `get`.
 * - A `private` file is never reachable by `publicUrl` where the backend can enforce it.
 * - Invalid keys reject with a TypeError before any I/O; backend failures with a LithoError
 *   `ERR_STORAGE`; a file is never half-written in a way `get` could return.
 */
export interface FileStore {
  /** Short name for messages, e.g. `s3`. */
  readonly name: string
  readonly capabilities: FileStoreCapabilities
  put(key: string, bytes: Uint8Array, options: { contentType: string; visibility: FileVisibility }): Promise<StoredFile>
  get(key: string): Promise<{ file: StoredFile; bytes: Uint8Array } | null>
  delete(key: string): Promise<boolean>
  publicUrl(key: string): string
  signedUrl(key: string, options: { expiresAt: Date; now: Date }): Promise<string>
  /** Releases connections. */
  dispose?(): Promise<void>
}

/** What a file store guarantees beyond the contract. */
export interface FileStoreCapabilities {
  /** Signed URLs are checked by the backend (S3 presigned URLs), not by the app. */
  presigned: boolean
  /** Files survive a restart. */
  persistent: boolean
}
