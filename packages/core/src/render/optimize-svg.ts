/**
 * Rewrites of satori's SVG that keep every pixel but save resvg (and the PDF writer)
 * work, measured on the 1080x1080 reference card (resvg `render()`: 137 ms → ~60 ms):
 *
 * - satori pairs every `overflow: hidden` clip-path with a mask of the same plain white
 *   rect. The clip already does the clipping; each mask makes resvg paint an offscreen
 *   layer (~55 ms on the card). We drop `mask` from elements that also carry a
 *   `clip-path`, when the mask is such a plain rect.
 * - satori wraps each background gradient in a one-tile `<pattern>`, which doubles its cost
 *   in resvg (docs/benchmarks.md). For linear gradients in bounding-box units the pattern is
 *   equivalent to the gradient itself, so elements reference the gradient directly. Radial
 *   gradients are in the tile's user space and keep their pattern.
 *
 * @module render/optimize-svg
 */

const PLAIN_MASK = /<mask id="(satori_om-id[^"]*)"><rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" fill="#fff"(?: mask="url\(#[^)"]*\)")?\/><\/mask>/g
const LINEAR_PATTERN =
  /<pattern id="([^"]+)" x="0" y="0" width="1" height="1" patternUnits="objectBoundingBox"><linearGradient id="([^"]+)"(?![^>]*gradientUnits)[^>]*>(?:<stop [^>]*\/>)+<\/linearGradient><rect x="0" y="0" width="[^"]*" height="[^"]*" fill="url\(#\2\)"\/><\/pattern>/g

/** Applies the rewrites above to an SVG produced by satori. */
export function optimizeSvg(svg: string): string {
  const plainMasks = new Set<string>()
  for (const m of svg.matchAll(PLAIN_MASK)) plainMasks.add(m[1]!)
  let out = svg
  if (plainMasks.size > 0) {
    // Only on tags that also have a clip-path: there the mask adds nothing.
    // Tags first, then their attributes: classes that stop at "<", ">" and '"' keep each scan
    // inside one tag or one value, so the work stays linear in the SVG's length (see
    // packages/core/test/security/redos.test.ts).
    out = out.replace(/<[a-z]+ [^<>]*>/g, (tag) =>
      / clip-path="url\(#[^)"]*\)"/.test(tag) ? tag.replace(/ mask="url\(#(satori_om-id[^)"]*)\)"/, (attr, id: string) => (plainMasks.has(id) ? '' : attr)) : tag,
    )
  }
  const patterns = new Map<string, string>()
  for (const m of out.matchAll(LINEAR_PATTERN)) patterns.set(m[1]!, m[2]!)
  for (const [pattern, gradient] of patterns) out = out.replaceAll(`fill="url(#${pattern})"`, `fill="url(#${gradient})"`)
  return out
}
