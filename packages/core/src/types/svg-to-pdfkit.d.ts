// svg-to-pdfkit ships no types; this is the part of its API Litho uses.
declare module 'svg-to-pdfkit' {
  interface SVGtoPDFOptions {
    width?: number
    height?: number
    preserveAspectRatio?: string
    assumePt?: boolean
    precision?: number
    warningCallback?: (message: string) => void
  }
  function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: SVGtoPDFOptions): void
  export default SVGtoPDF
}
