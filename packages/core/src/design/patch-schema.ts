/**
 * The schema of a patch to a draft (`update_design`'s `patch`), as the MCP tool's input schema
 * shows it to agents. {@link applyDesignPatch} (design/patch) applies one.
 *
 * @module design/patch-schema
 */
import * as z from 'zod'
import { expected, wholeNumber } from '../_internal/messages.js'
import { MAX_TOTAL_COMPONENTS } from './schema.js'

const documentWhat = 'a design document: a JSON object such as { "version": 2, "width": 1080, "height": 1080, "components": [] }'
/** A raw design document as an input field: any JSON object (validated by the operation, not here). */
export const documentSchema = z.record(z.string(), z.unknown(), expected(documentWhat))

const keyWhat = 'a component key'
const componentKeySchema = z.string(expected(keyWhat)).min(1, expected(keyWhat))
const positionSchema = wholeNumber(0, MAX_TOTAL_COMPONENTS, `a position from 0 to ${MAX_TOTAL_COMPONENTS}`)

/**
 * The changes of a patch to a draft (`update_design`'s `patch`). Steps apply in this order:
 * 1. `width`, `height`, `background`, `fonts`, `variations` replace the document's field (`null`
 *    removes `background`, `fonts` or `variations`);
 * 2. `components`: `{ <key>: partial component }` is deep-merged into the component with that key,
 *    wherever it is (top level or inside groups): objects merge, arrays and scalars replace, a
 *    `null` field removes that field; `{ <key>: null }` removes the component (and its children);
 * 3. `remove`: component keys to remove;
 * 4. `add`: `{ component, parent?, index? }` inserts a new component, at the top level or into the
 *    group `parent`, at `index` (0 = bottom) or on top;
 * 5. `move`: `{ key, parent?, index? }` moves a component (`parent` omitted: same parent; `null`:
 *    top level) to `index` or on top.
 * Keys of `components` and `remove` name components of the draft before the patch; `add[].parent`
 * and `move` see the result of the earlier steps (so a group added earlier can be a parent).
 *
 * @example
 * DesignPatchSchema.parse({
 *   components: { title: { text: 'Summer sale', stroke: { width: 2 } }, badge: null },
 *   add: [{ component: { key: 'price', type: 'text', x: 40, y: 900, width: 400, height: 80, text: '€19' }, parent: 'card' }],
 * })
 */
export const DesignPatchSchema = z
  .strictObject({
    width: z
      .number(expected('a width in pixels'))
      .optional()
      .meta({ description: 'New base width in pixels (1-4096). Components keep their positions and sizes; variations are unaffected.' }),
    height: z
      .number(expected('a height in pixels'))
      .optional()
      .meta({ description: 'New base height in pixels (1-4096). Components keep their positions and sizes.' }),
    background: z
      .unknown()
      .optional()
      .meta({ description: 'New canvas paint: a CSS colour string such as "#ffffff", or a gradient object `{ "type": "linear", "angle": 180, "stops": [{ "offset": 0, "color": "#000" }, { "offset": 1, "color": "#fff" }] }`. `null` removes it (transparent; white in JPEG).' }),
    fonts: z
      .array(z.unknown(), expected('an array of font faces, or null'))
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list of extra font faces `{ "family", "src" (https URL of a TTF/OTF/WOFF/WOFF2), "weight", "style" }`. `null` removes them all.' }),
    variations: z
      .array(z.unknown(), expected('an array of variations, or null'))
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list of extra sizes `{ "id", "name", "width", "height", "components"?: { <key>: { field: value } } }`. `null` removes them all.' }),
    components: z
      .record(z.string(), z.record(z.string(), z.unknown(), expected('a partial component (an object of fields), or null to remove it')).nullable(), expected('an object of changes by component key'))
      .optional()
      .meta({
        description:
          'Changes to existing components, by `key`; components inside groups are found by their own key too. ' +
          'The value is a partial component deep-merged into it: nested objects merge (`{ "stroke": { "width": 2 } }` keeps the stroke colour), arrays and plain values replace, and a field set to `null` is removed (back to its default). ' +
          'A value of `null` instead of an object removes the whole component (a group with its children). ' +
          'Example: `{ "title": { "text": "Summer sale", "fontSize": 72 }, "old-badge": null }`. The keys are those of the draft (see `get_design`; `get_render_config`\'s `data.flatten` lists the overridable `key.field` pairs).',
      }),
    add: z
      .array(
        z
          .strictObject({
            component: documentSchema.meta({
              description: 'The new component, exactly as in a document: a `key` not used anywhere in the document, a `type`, `x`, `y`, `width`, `height` and the type\'s fields (see `get_design_guide`).',
            }),
            parent: componentKeySchema
              .optional()
              .meta({ description: 'The key of a group to put the component in; its `x` and `y` are then relative to the group. Omitted: the top level of the canvas.' }),
            index: positionSchema
              .optional()
              .meta({ description: 'Position in the parent\'s list: 0 is the bottom (painted first). Omitted, or past the end: on top of the others.' }),
          })
          .meta({ description: 'One component to add.' }),
        expected('an array of { component, parent?, index? }'),
      )
      .optional()
      .meta({ description: 'New components, inserted in list order (a group added earlier in the list can be the `parent` of a later one).' }),
    remove: z
      .array(componentKeySchema, expected('an array of component keys'))
      .optional()
      .meta({ description: 'Keys of components to remove, wherever they are; removing a group removes its children.' }),
    move: z
      .array(
        z
          .strictObject({
            key: componentKeySchema.meta({ description: 'The key of the component to move.' }),
            parent: componentKeySchema
              .nullable()
              .optional()
              .meta({ description: 'The key of the group to move it into (positions become relative to that group); `null`: the top level; omitted: it stays in its current parent (to change the stacking order only).' }),
            index: positionSchema
              .optional()
              .meta({ description: 'New position in the target list, counted without the moved component: 0 is the bottom. Omitted, or past the end: on top.' }),
          })
          .meta({ description: 'One component to move.' }),
        expected('an array of { key, parent?, index? }'),
      )
      .optional()
      .meta({ description: 'Components to move to another group or another place in the stacking order, applied after `add`.' }),
  })
  .meta({
    description:
      'Changes to the draft, applied in this order: (1) `width`, `height`, `background`, `fonts`, `variations` replace those document fields; ' +
      '(2) `components` merges changes into components by key, or removes one with `null`; (3) `remove` removes components by key; ' +
      '(4) `add` inserts new components; (5) `move` moves components. ' +
      'Keys in `components` and `remove` must exist in the draft; an unknown key is an error that lists the existing keys. ' +
      'The patched draft must be a valid document; if not, nothing changes and each problem is reported with its path in the draft (`draft.components[2].fontSize`).',
  })
/** A patch to a draft, e.g. `{ components: { title: { text: 'Hi' } }, remove: ['badge'] }`. See {@link DesignPatchSchema}. */
export type DesignPatch = z.input<typeof DesignPatchSchema>

