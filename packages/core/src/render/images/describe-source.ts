/**
 * How a source URL appears in error messages and details. Messages are shown to API callers and
 * written to logs, so they must not carry payloads or credentials.
 *
 * @module render/images/describe-source
 */

// Long enough to recognise the resource, short enough to keep a log line readable.
const MAX_SHOWN_CHARS = 200

/**
 * A short, safe label for a source: `data:` URIs become `data:image/png;base64,… (1234 bytes)`
 * (never the payload); http(s) URLs lose their query (signed URLs carry tokens there) and
 * fragment; anything else is truncated.
 *
 * @example
 * describeSource('https://cdn.test/a.png?sig=secret') // 'https://cdn.test/a.png?…'
 */
export function describeSource(source: string): string {
  if (/^data:/i.test(source)) {
    const comma = source.indexOf(',')
    const header = comma === -1 ? '' : source.slice(0, comma)
    // Only echo a header that looks like a media type with parameters, never arbitrary text.
    const shownHeader = comma !== -1 && header.length <= 100 && /^data:[\w!#$&^.+-]*(\/[\w!#$&^.+-]+)?(;[\w!#$&^.+-]+(=[\w!#$&^.+-]*)?)*$/i.test(header) ? `${header},` : 'data:'
    return `${shownHeader}… (${source.length} bytes)`
  }
  let url: URL
  try {
    url = new URL(source)
  } catch {
    return truncate(source)
  }
  // Credentials and the query are dropped (signed URLs carry tokens there), so is the fragment.
  const hadQuery = url.search !== ''
  url.username = ''
  url.password = ''
  url.search = ''
  url.hash = ''
  return truncate(url.href) + (hadQuery ? '?…' : '')
}

function truncate(text: string): string {
  const oneLine = text.replace(/[\u0000-\u001f\u007f]/g, '')
  return oneLine.length > MAX_SHOWN_CHARS ? `${oneLine.slice(0, MAX_SHOWN_CHARS - 1)}…` : oneLine
}
