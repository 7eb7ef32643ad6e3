/**
 * The asset store port: the records of uploaded images (docs/assets.md). The bytes live in the
 * file store under `assets/<owner>/<id>`; this port keeps what lists and checks need.
 *
 * @module contracts/asset-store
 */

/** One uploaded image. Immutable once stored: an asset is replaced by uploading a new one. */
export interface AssetRecord {
  /** `a_` and 16 characters of base64url, e.g. `a_3Jx9Qm2LpZ7aK4tW` (`[A-Za-z0-9_-]{1,64}`). */
  id: string
  /** The owning account (`[A-Za-z0-9_-]{1,64}`). */
  owner: string
  /** The file name given at upload, 1-200 characters. */
  name: string
  /** The sniffed type: `image/png`, `image/jpeg`, `image/webp`, `image/gif` or `image/svg+xml`. */
  contentType: string
  /** Pixels (for SVG: its intrinsic size). */
  width: number
  height: number
  /** Size of the stored file, counted against the owner's `storageBytes`. */
  bytes: number
  /** ISO 8601 with an offset. */
  createdAt: string
}

/**
 * Keeps asset records. Every implementation passes the asset-store suite of `@litho/testing`
 * (`runAssetStoreConformance`).
 *
 * Behaviour:
 * - `put` stores a record; a second `put` of the same id rejects with a LithoError
 *   `ERR_STORE_CONFLICT` (assets are immutable). `get` returns a copy or `null`; `delete`
 *   returns false when nothing was there. Reads see their own writes.
 * - `listByOwner` returns the owner's records, newest first (ties by id), a page of at most
 *   `limit` (1-1000) from `offset` (≥ 0), and the `total`.
 * - Invalid input rejects with a coded TypeError (`ERR_INVALID_ARG_TYPE`/`ERR_INVALID_ARG_VALUE`)
 *   before any I/O; backend failures with a LithoError `ERR_STORAGE`.
 */
export interface AssetStore {
  /** Short name for messages, e.g. `redis`. */
  readonly name: string
  put(record: AssetRecord): Promise<void>
  get(id: string): Promise<AssetRecord | null>
  delete(id: string): Promise<boolean>
  listByOwner(owner: string, page: { offset: number; limit: number }): Promise<{ items: AssetRecord[]; total: number }>
  /** Releases connections. */
  dispose?(): Promise<void>
}
