/**
 * Layout with stand-in images. satori copies an image URI into its SVG verbatim but also
 * processes it on every call (~4 ms for the reference card's 245 KB photo), although the
 * size of every prepared image is already fixed. So satori lays out a tiny unique 1x1
 * PNG per image, and the real data URIs are put in place in the finished SVG.
 *
 * @module render/image-placeholders
 */
import sharp from 'sharp'
import type { PreparedImage } from './images/index.js'

// Placeholder i is a 1x1 PNG whose RGBA bytes encode i, so each is a distinct string.
// One per image index ever used in a document (at most the component limit, 1000).
const placeholders: Array<Promise<string>> = []

function placeholder(index: number): Promise<string> {
  let uri = placeholders[index]
  if (!uri) {
    const background = { r: index & 0xff, g: (index >> 8) & 0xff, b: (index >> 16) & 0xff, alpha: 1 }
    uri = sharp({ create: { width: 1, height: 1, channels: 4, background } })
      .png()
      .toBuffer()
      .then((png) => `data:image/png;base64,${png.toString('base64')}`)
    placeholders[index] = uri
  }
  return uri
}

/** Prepared images with placeholder URIs, and the function that puts the real ones back into an SVG. */
export async function withPlaceholders(
  images: ReadonlyMap<string, PreparedImage>,
): Promise<{ images: Map<string, PreparedImage>; restore: (svg: string) => string }> {
  const swapped = new Map<string, PreparedImage>()
  const pairs: Array<[string, string]> = []
  let index = 0
  for (const [key, image] of images) {
    const stand = await placeholder(index++)
    swapped.set(key, { ...image, dataUri: stand })
    pairs.push([stand, image.dataUri])
  }
  return {
    images: swapped,
    restore: (svg) => pairs.reduce((out, [stand, real]) => out.replaceAll(stand, real), svg),
  }
}
