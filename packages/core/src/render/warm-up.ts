/**
 * The warm-up of a render thread: one small design that goes through the paths a typical card
 * takes (a gradient, a photo decoded and cover-fitted with rounded corners, regular and bold
 * text with a clamp, a badge, a QR code, the static-layer path with an override), rendered in
 * JPEG and PNG. It loads satori, resvg, sharp and the PNG encoder, parses the built-in faces,
 * starts libvips, and runs the hot code once, so the first real render of a thread pays for
 * none of that (docs/performance.md, "Cold start").
 *
 * @module render/warm-up
 */
import { renderDocument, type RenderContext } from './render-document.js'

// 16×16 JPEG (298 bytes): enough for sharp to decode, resize and re-encode a photo.
const PHOTO =
  'data:image/jpeg;base64,/9j/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAQABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAABQb/xAAYEAACAwAAAAAAAAAAAAAAAAAABAUiMf/EABUBAQEAAAAAAAAAAAAAAAAAAAAC/8QAGhEAAgIDAAAAAAAAAAAAAAAAAAUDBCExYf/aAAwDAQACEQMRAD8AmFY7Ki6sdlRdWOyowrHZUqe90KmOsn//2Q=='

/** The warm-up design: a 96×96 card with the components of a typical one. */
export const WARM_UP_DESIGN = {
  version: 2,
  width: 96,
  height: 96,
  background: { type: 'linear', angle: 135, stops: [{ offset: 0, color: '#0f172a' }, { offset: 1, color: '#1e3a8a' }] },
  components: [
    { type: 'image', key: 'photo', width: 96, height: 40, src: PHOTO, fit: 'cover', radius: 8 },
    { type: 'text', key: 'title', x: 4, y: 42, width: 88, height: 24, text: 'Aa Bb Cc Dd Ee Ff Gg', fontSize: 10, fontWeight: 700, color: '#ffffff', maxLines: 2 },
    { type: 'text', key: 'subtitle', x: 4, y: 66, width: 60, height: 12, text: 'Aa Bb', fontSize: 8, color: '#cbd5e1' },
    { type: 'text', key: 'badge', x: 4, y: 80, width: 30, height: 12, text: 'Aa', fontSize: 8, fontWeight: 700, align: 'center', verticalAlign: 'middle', background: '#facc15', radius: 6 },
    { type: 'qrcode', key: 'qr', x: 70, y: 70, width: 24, height: 24, value: 'https://example.com' },
  ],
} as const

/**
 * Renders {@link WARM_UP_DESIGN} in JPEG, then PNG, with an override of its title (the
 * static-layer path, as requests take it), on `context`. The layers it leaves in the cache are
 * a few kilobytes. Part of the render stack (render/stack): in-process renderers load it with
 * the stack.
 *
 * @example await warmUp(context) // the next render starts on warm code
 */
export async function warmUp(context: RenderContext): Promise<void> {
  for (const format of ['jpeg', 'png'] as const) {
    await renderDocument(WARM_UP_DESIGN, { format, overrides: { 'title.text': `Aa Bb Cc ${format}` } }, context)
  }
}
