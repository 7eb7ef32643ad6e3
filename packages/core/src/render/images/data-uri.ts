/**
 * Decoding of `data:` URIs (RFC 2397), base64 or percent-encoded, under a byte cap.
 *
 * @module render/images/data-uri
 */

/** A decoded `data:` URI. */
export interface DecodedDataUri {
  /** The declared media type, lower-cased, without parameters; undefined when none was given. */
  mediaType: string | undefined
  bytes: Buffer
}

/** Why a `data:` URI could not be decoded. */
export type DataUriFailure = { reason: 'bad_data_uri'; problem: string } | { reason: 'too_large'; size: number }

/**
 * Decodes `uri`, refusing payloads over `maxBytes`. For base64 the decoded size is computed
 * from the text before any allocation, so an oversized URI never becomes a second, bigger copy.
 *
 * @example
 * decodeDataUri('data:text/plain,hi%21', 1024) // { mediaType: 'text/plain', bytes: <68 69 21> }
 */
export function decodeDataUri(uri: string, maxBytes: number): DecodedDataUri | DataUriFailure {
  const comma = uri.indexOf(',')
  if (!/^data:/i.test(uri) || comma === -1) return { reason: 'bad_data_uri', problem: 'expected data:[<media type>][;base64],<data>' }
  const params = uri.slice(5, comma).split(';').map((part) => part.trim())
  const isBase64 = params.length > 1 && params[params.length - 1]!.toLowerCase() === 'base64'
  const mediaType = params[0] === '' || params[0] === undefined ? undefined : params[0].toLowerCase()
  const payload = uri.slice(comma + 1)

  if (isBase64) {
    // Whitespace is tolerated (URIs get wrapped); percent-escapes inside base64 are not.
    const text = payload.replace(/[\t\n\f\r ]+/g, '')
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1) return { reason: 'bad_data_uri', problem: 'the base64 payload is malformed' }
    const size = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0)
    if (size > maxBytes) return { reason: 'too_large', size }
    // Node's base64 decoder also accepts the URL-safe alphabet.
    return { mediaType, bytes: Buffer.from(text, 'base64') }
  }

  // Percent-encoded: the decoded form is never longer than the text, which is already in memory.
  const bytes = percentDecode(payload)
  if (bytes === undefined) return { reason: 'bad_data_uri', problem: 'the percent-encoded payload is malformed' }
  if (bytes.length > maxBytes) return { reason: 'too_large', size: bytes.length }
  return { mediaType, bytes }
}

function percentDecode(text: string): Buffer | undefined {
  const source = Buffer.from(text, 'utf8')
  const out = Buffer.allocUnsafe(source.length)
  let length = 0
  for (let index = 0; index < source.length; index++) {
    const byte = source[index]!
    if (byte !== 0x25) {
      out[length++] = byte
      continue
    }
    const hex = source.toString('latin1', index + 1, index + 3)
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined
    out[length++] = Number.parseInt(hex, 16)
    index += 2
  }
  return out.subarray(0, length)
}
