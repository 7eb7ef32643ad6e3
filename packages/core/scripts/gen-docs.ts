/**
 * Writes the generated design docs: `docs/design-document.md` and
 * `docs/design-document.schema.json`, from the schema through the design guide.
 * Run from the repo root: `npx tsx packages/core/scripts/gen-docs.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DESIGN_DOCS_FILES, renderDesignDocs } from '../src/design/guide.js'

const docs = fileURLToPath(new URL('../../../docs/', import.meta.url))
const { markdown, jsonSchema } = renderDesignDocs()
mkdirSync(docs, { recursive: true })
writeFileSync(docs + DESIGN_DOCS_FILES.markdown, markdown)
writeFileSync(docs + DESIGN_DOCS_FILES.jsonSchema, jsonSchema)
console.log(`wrote docs/${DESIGN_DOCS_FILES.markdown} and docs/${DESIGN_DOCS_FILES.jsonSchema}`)
