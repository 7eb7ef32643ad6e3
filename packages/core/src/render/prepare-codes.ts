/**
 * Encodes the QR codes and barcodes of a document before layout. A value that cannot be
 * encoded (letters in an EAN-13, more text than a QR code holds) is bad input, not a failed
 * render: it is refused as `ERR_INVALID_OVERRIDE` when a render's override set it, else as
 * `ERR_INVALID_DESIGN`, with the path of the field either way.
 *
 * @module render/prepare-codes
 */
import { LithoError, formatIssues } from '../errors.js'
import type { Component, DesignDocument } from '../design/schema.js'
import { walkComponents } from '../design/walk.js'
import { innerSize } from './build-tree.js'
import { barcodeSvg, qrCodeSvg, svgDataUri, type VectorCode } from './codes.js'

/**
 * The vector code of every QR code and barcode in `components` (the visible ones of
 * `document`), by component key. `overridden` lists the override keys that were applied
 * (`AppliedOverrides.applied`), so a bad `value` is blamed on the override that set it.
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE` (path `ean.value`) or `ERR_INVALID_DESIGN`
 *   (path `components[2].value`) when a value cannot be encoded.
 * @example prepareCodes(doc, visibleComponents, ['ean.value']).get('ean')?.uri // 'data:image/svg+xml;base64,…'
 */
export function prepareCodes(document: DesignDocument, components: readonly Component[], overridden: readonly string[] = []): Map<string, VectorCode & { uri: string }> {
  const codes = new Map<string, VectorCode & { uri: string }>()
  for (const c of components) {
    let code: VectorCode | undefined
    try {
      if (c.type === 'qrcode') code = qrCodeSvg(c)
      else if (c.type === 'barcode') code = barcodeSvg({ ...c, ...innerSize(c) })
    } catch (error) {
      if (!LithoError.isInstance(error) || error.code !== 'ERR_INVALID_DESIGN') throw error
      throw refuse(document, c.key, error, overridden.includes(`${c.key}.value`))
    }
    if (code) codes.set(c.key, { ...code, uri: svgDataUri(code.svg) })
  }
  return codes
}

function refuse(document: DesignDocument, key: string, error: LithoError, fromOverride: boolean): LithoError {
  let path = `${key}.value`
  if (!fromOverride) walkComponents(document.components, (component, location) => {
    if (component.key === key) path = `${location.path}.value`
  })
  const issues = [{ path, message: error.message }]
  return fromOverride
    ? new LithoError('ERR_INVALID_OVERRIDE', `Invalid override (1 problem):\n${formatIssues(issues)}`, { cause: error, issues, details: { keys: [path] } })
    : new LithoError('ERR_INVALID_DESIGN', `Invalid design document (1 problem):\n${formatIssues(issues)}`, { cause: error, issues })
}
