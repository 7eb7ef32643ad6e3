// The design document as the console handles it (docs/design-document.md): loosely typed, the
// server validates it. Kept apart from api.ts so the pure editor model needs no browser globals.

/** A v2 design document; the fields the console reads are typed, the rest pass through. */
export interface DesignDocument {
  width?: number
  height?: number
  components?: Array<Record<string, unknown> & { key?: string; type?: string }>
  [field: string]: unknown
}
