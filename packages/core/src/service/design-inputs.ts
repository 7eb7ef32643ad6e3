/**
 * The agent-facing input schemas of the design write operations (the MCP tools
 * `create_design`, `update_design`, `publish_design`, `delete_design`): the tools' input
 * schemas and the first check of each operation (service/design-writes).
 *
 * @module service/design-inputs
 */
import * as z from 'zod'
import { expected } from '../_internal/messages.js'
import { DesignPatchSchema, documentSchema } from '../design/patch-schema.js'

/** Longest design name, in characters (after trimming). */
export const MAX_DESIGN_NAME_LENGTH = 200

const CONTROL = /[\u0000-\u001f\u007f]/
const nameWhat = `a design name of 1 to ${MAX_DESIGN_NAME_LENGTH} characters`
const designNameSchema = z
  .string(expected(nameWhat))
  .trim()
  .min(1, expected(nameWhat))
  .max(MAX_DESIGN_NAME_LENGTH, expected(nameWhat))
  .refine((value) => !CONTROL.test(value), expected(`${nameWhat} without control characters`))

/** A design's `_id` as a tool input (not the render code). */
export const designIdSchema = z
  .string(expected('a design id such as "d_3Jx9Qm2LpZ7a"'))
  .meta({ description: 'The design\'s `_id` (like `d_3Jx9Qm2LpZ7a`), as returned by `create_design`, `list_designs` or `get_design`. Not the `renderCode`.' })

const DOCUMENT_HELP =
  'A Litho design document (version 2), as JSON: `{ "version": 2, "width": 1080, "height": 1080, "background": "#ffffff", "components": [ … ] }`. ' +
  '`width` and `height` are the base size in pixels (1-4096); every position and size inside is in pixels of that base size, with (0, 0) the top-left corner. ' +
  'Components are painted in order (the first is at the bottom); each has a `key` that is unique in the whole document, a `type` (text, image, shape, qrcode, barcode, group), `x`, `y`, `width` and `height`. ' +
  'Call `get_design_guide` for every field of every type, with examples.'

/**
 * The agent-facing input of `createDesign` (the `create_design` tool).
 *
 * @example CreateDesignInputSchema.parse({ name: 'Product card', document: { version: 2, width: 1080, height: 1080, components: [] } })
 */
export const CreateDesignInputSchema = z.object({
  name: designNameSchema.meta({ description: `A name for the design, shown in design lists: 1-${MAX_DESIGN_NAME_LENGTH} characters.` }),
  document: documentSchema.meta({
    description: `${DOCUMENT_HELP} If it is invalid, nothing is stored and every problem is listed with its path (e.g. \`document.components[1].fontSize\`).`,
  }),
  publish: z
    .boolean(expected('true or false'))
    .optional()
    .meta({
      description:
        'false (default): the document is stored as the draft, to check with `render_preview`, refine with `update_design` and publish with `publish_design`; the render URL works only once it is published. true: published at once, so renders use it right away.',
      default: false,
    }),
})
/** The input of `create_design`, e.g. `{ name: 'Card', document: { version: 2, … }, publish: false }`. */
export type CreateDesignInput = z.input<typeof CreateDesignInputSchema>

/**
 * The agent-facing input of `updateDesign` (the `update_design` tool).
 *
 * @example UpdateDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a', patch: { components: { title: { text: 'Hi' } } } })
 */
export const UpdateDesignInputSchema = z.object({
  id: designIdSchema,
  name: designNameSchema
    .optional()
    .meta({ description: `A new name (1-${MAX_DESIGN_NAME_LENGTH} characters). It takes effect at once: the name belongs to the design, not to the draft.` }),
  document: documentSchema.optional().meta({
    description: `A whole new document that replaces the draft. ${DOCUMENT_HELP} Give either \`document\` or \`patch\`, not both; problems are reported with their path (\`document.…\`).`,
  }),
  patch: DesignPatchSchema.optional(),
})
/** The input of `update_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a', patch: { remove: ['badge'] } }`. */
export type UpdateDesignInput = z.input<typeof UpdateDesignInputSchema>

/**
 * The agent-facing input of `publishDesign` (the `publish_design` tool).
 *
 * @example PublishDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a' })
 */
export const PublishDesignInputSchema = z.object({ id: designIdSchema })
/** The input of `publish_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a' }`. */
export type PublishDesignInput = z.input<typeof PublishDesignInputSchema>

/**
 * The agent-facing input of `deleteDesign` (the `delete_design` tool).
 *
 * @example DeleteDesignInputSchema.parse({ id: 'd_3Jx9Qm2LpZ7a' })
 */
export const DeleteDesignInputSchema = z.object({ id: designIdSchema })
/** The input of `delete_design`, e.g. `{ id: 'd_3Jx9Qm2LpZ7a' }`. */
export type DeleteDesignInput = z.input<typeof DeleteDesignInputSchema>

