/**
 * Reads the FILE argument of `litho render` and `litho designs import`: a bare DesignDocument,
 * or a `{ name, design }` record (a record has `design` and no `version`).
 *
 * @module commands/_read-design-file
 */
import { readFile } from 'node:fs/promises'
import { UsageError } from './usage-error.js'

/**
 * The document in `file`, and the record's name when it is a record.
 *
 * @throws UsageError when the file cannot be read or is not JSON.
 */
export async function readDesignFile(file: string): Promise<{ document: unknown; name: unknown }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`)
  }
  if (json && typeof json === 'object' && 'design' in json && !('version' in json)) {
    const record = json as { name?: unknown; design: unknown }
    return { document: record.design, name: record.name }
  }
  return { document: json, name: undefined }
}
