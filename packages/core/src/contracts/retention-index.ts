/**
 * The retention index port: a record of every stored render (hosted and signed files), so that
 * expired files can be found and deleted (the file store has no listing: S3 lists only through
 * a paged XML API, and listing is not what a file store is for).
 *
 * @module contracts/retention-index
 */

/** One stored render's lifetime record. */
export interface RetainedFile {
  /** The file store key, e.g. `u_1/r_3Jx9.png` (1-1024 characters). */
  key: string
  /** The owning account: the subject its bytes are counted against. `[A-Za-z0-9_-]{1,64}`. */
  owner: string
  /** Bytes counted against the owner's storage: a whole number ≥ 0. */
  bytes: number
  /** `hosted` files follow the server's retention setting; `signed` files go once their URL expires. */
  delivery: 'hosted' | 'signed'
  /** When it was stored: ISO 8601 with an offset. */
  createdAt: string
  /** Signed files: when the signed URL stops working (ISO 8601); hosted files: null. */
  expiresAt: string | null
}

/**
 * Records the stored renders. Every implementation passes the retention-index suite of
 * `@litho/testing` (`runRetentionIndexConformance`).
 *
 * Behaviour:
 * - `put` records a file, replacing the record of the same key; `get` returns it (a copy) or
 *   `null`; `delete` returns false when nothing was recorded. Reads see their own writes.
 * - `list` returns records in an order that never changes for a key (not necessarily the order
 *   of the keys), starting after the key `after` (exclusive; a key no longer recorded works
 *   too), at most `limit` (1-1000). Walking pages with the last key of each page visits every
 *   record present during the whole walk exactly once; records put or deleted meanwhile may or
 *   may not be visited.
 * - Invalid input rejects with a coded TypeError (`ERR_INVALID_ARG_TYPE`/`ERR_INVALID_ARG_VALUE`)
 *   before any I/O; backend failures with a LithoError `ERR_STORAGE`.
 */
export interface RetentionIndex {
  /** Short name for messages, e.g. `redis`. */
  readonly name: string
  put(file: RetainedFile): Promise<void>
  get(key: string): Promise<RetainedFile | null>
  delete(key: string): Promise<boolean>
  list(options: { after?: string; limit: number }): Promise<RetainedFile[]>
  /** Releases connections. */
  dispose?(): Promise<void>
}
