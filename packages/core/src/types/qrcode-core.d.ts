// qrcode's encoder alone (lib/core/qrcode.js): what `QRCode.create` of the package's main entry
// is, without the PNG, terminal and UTF-8 renderers (and pngjs) that the main entry loads too.
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode'
}
