/**
 * The design store port: stored designs, each owned by one account.
 *
 * @module contracts/design-store
 */

/** A stored design (the `/designs/v2/{id}` record of docs/http-reference.md, plus its owner). */
export interface DesignRecord {
  /** Internal id, the `_id` of the interface: `[A-Za-z0-9_-]{1,64}`. */
  id: string
  /** The owning account's id: `[A-Za-z0-9_-]{1,64}`. */
  ownerId: string
  name: string
  /** The unguessable code of `{render_url}/v1/{design_id}`: `[A-Za-z0-9_-]{16,64}`. */
  renderCode: string
  /** The published DesignDocument (validated JSON), or null while there is only a draft. */
  design: unknown
  /** The unpublished draft, or null. */
  draft: unknown
  /** ISO 8601 timestamps, set by the caller (time comes from the clock port, not the store). */
  createdAt: string
  updatedAt: string
}

/** An item of a design list. */
export interface DesignSummary {
  id: string
  name: string
  updatedAt: string
}

/**
 * Stores designs. Every implementation passes the design-store suite of `@litho/testing`
 * (`runDesignStoreConformance`).
 *
 * Behaviour:
 * - "Not found" is `null` (get) or `false` (update, delete), never an error.
 * - Records come back as stored: every field, and `design`/`draft` as equal JSON (a copy:
 *   changing a returned record never changes the store).
 * - `create` rejects with a LithoError `ERR_STORE_CONFLICT` when the id or the render code is
 *   already used. Ids and render codes are random (≥ 96 bits), so a conflict means a bug;
 *   stores need only detect it on one instance, not atomically across instances.
 * - `update` replaces a record that exists; `id`, `ownerId`, `renderCode` and `createdAt`
 *   must be those stored (else it rejects with a TypeError `ERR_INVALID_ARG_VALUE`). Concurrent
 *   updates of one design: the last write wins.
 * - After `delete`, neither `get` nor `getByRenderCode` finds the design, and lists omit it.
 * - `listByOwner` returns the owner's designs, most recently updated first (ties by id), a
 *   page of at most `limit` from `offset`, and the `total`. It may lag behind writes by a
 *   short, documented time (eventual consistency); the other methods read their own writes.
 * - Invalid arguments (ids outside their alphabet, a page outside offset ≥ 0 and 1 ≤ limit ≤
 *   100) reject with a TypeError `ERR_INVALID_ARG_VALUE` or `ERR_INVALID_ARG_TYPE`.
 * - Backend failures reject; nothing is ever half-written in a way that `get` could return.
 */
export interface DesignStore {
  /** Short name for messages, e.g. `fs`. */
  readonly name: string
  create(record: DesignRecord): Promise<void>
  get(id: string): Promise<DesignRecord | null>
  getByRenderCode(renderCode: string): Promise<DesignRecord | null>
  update(record: DesignRecord): Promise<boolean>
  delete(id: string): Promise<boolean>
  listByOwner(ownerId: string, page: { offset: number; limit: number }): Promise<{ items: DesignSummary[]; total: number }>
  /** Releases connections. */
  dispose?(): Promise<void>
}
