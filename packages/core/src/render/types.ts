/**
 * Public types of the renderer.
 *
 * @module render/types
 */
import type { IgnoredReason } from '../design/overrides.js'

export { CONTENT_TYPES, OUTPUT_FORMATS, type OutputFormat } from '../contracts/formats.js'

/** What a warning is about. */
export type RenderWarningCode =
  /** An override key was ignored; `reason` says why. */
  | 'override_ignored'
  /** autoFit shrank the text below its fontSize. */
  | 'text_shrunk'
  /** maxLines cut the text (it ends with an ellipsis). */
  | 'text_cut'
  /** The text is taller than its box (even at autoFit.min). */
  | 'text_overflow'
  /** No available font can draw some characters; they render as boxes. */
  | 'missing_glyphs'
  /** A font family is not available; a built-in family is used instead. */
  | 'font_fallback'

/** A problem that did not stop the render, but that the caller should know about. */
export interface RenderWarning {
  code: RenderWarningCode
  /** Key of the component concerned, or the override key for `override_ignored`. */
  key?: string
  /** For `override_ignored`: why it was ignored. */
  reason?: IgnoredReason
  /** For `override_ignored`: the overridable key that was probably meant ("did you mean"). */
  suggestion?: string
  /** One readable sentence. */
  message: string
}
