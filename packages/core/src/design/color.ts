/**
 * CSS colour validation. Colours reach satori and resvg as CSS strings; a malformed one
 * must be rejected up front with the field's name rather than silently drawn black.
 *
 * @module design/color
 */

// The CSS Color Module Level 4 named colours (plus `transparent`).
const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
    'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
    'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
    'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
    'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
    'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen ' +
    'mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace ' +
    'olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred ' +
    'papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
    'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey ' +
    'snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow ' +
    'yellowgreen transparent'
  ).split(' '),
)

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const NUM = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`
const PCT_OR_NUM = String.raw`${NUM}%?`
const ANGLE = String.raw`${NUM}(?:deg|rad|grad|turn)?`
// rgb()/rgba() and hsl()/hsla(), in both the comma and the space-separated syntax.
const RGB = new RegExp(
  String.raw`^rgba?\(\s*${PCT_OR_NUM}\s*(?:,\s*${PCT_OR_NUM}\s*,\s*${PCT_OR_NUM}\s*(?:,\s*${PCT_OR_NUM}\s*)?|\s+${PCT_OR_NUM}\s+${PCT_OR_NUM}\s*(?:/\s*${PCT_OR_NUM}\s*)?)\)$`,
  'i',
)
const HSL = new RegExp(
  String.raw`^hsla?\(\s*${ANGLE}\s*(?:,\s*${PCT_OR_NUM}\s*,\s*${PCT_OR_NUM}\s*(?:,\s*${PCT_OR_NUM}\s*)?|\s+${PCT_OR_NUM}\s+${PCT_OR_NUM}\s*(?:/\s*${PCT_OR_NUM}\s*)?)\)$`,
  'i',
)

/**
 * True when `value` is a CSS colour Litho accepts: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
 * `rgb()`/`rgba()`, `hsl()`/`hsla()`, a named colour or `transparent`.
 *
 * @example isCssColor('#ff8800') // true
 */
export function isCssColor(value: string): boolean {
  const v = value.trim()
  if (v.length === 0 || v.length > 64) return false
  return HEX.test(v) || NAMED_COLORS.has(v.toLowerCase()) || RGB.test(v) || HSL.test(v)
}

/**
 * True when `value` is certainly fully opaque (no alpha channel or alpha 1). Conservative:
 * anything it cannot tell is treated as possibly transparent.
 */
export function isOpaqueColor(value: string): boolean {
  const v = value.trim().toLowerCase()
  if (v === 'transparent') return false
  if (HEX.test(v)) return v.length === 4 || v.length === 7 || (v.length === 9 && v.endsWith('ff')) || (v.length === 5 && v.endsWith('f'))
  if (NAMED_COLORS.has(v)) return true
  // rgb()/hsl() with three components and no "/ alpha" or fourth value.
  const inner = /^(?:rgb|hsl)a?\((.*)\)$/.exec(v)?.[1]
  if (inner === undefined) return false
  if (inner.includes('/')) return false
  return inner.split(/[\s,]+/).filter(Boolean).length === 3
}
