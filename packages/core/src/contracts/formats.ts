/**
 * The output formats and their content types: plain data, in the contracts entry so clients
 * and schemas name formats without loading the renderer.
 *
 * @module contracts/formats
 */

/** Output formats. */
export type OutputFormat = 'png' | 'jpeg' | 'webp' | 'pdf'

/** The output formats, in the order the docs list them. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['png', 'jpeg', 'webp', 'pdf']

/** Content type of each output format. */
export const CONTENT_TYPES: Readonly<Record<OutputFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
}
