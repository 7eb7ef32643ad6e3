/**
 * @litho/http-h3: Litho's HTTP interface on h3 and the `litho` command line.
 * The HTTP app (`createLithoApp`) arrives with the render service; today the package
 * ships the `litho render` command.
 *
 * @module @litho/http-h3
 */
export { renderCommand, type RenderCommandIo } from './commands/render.js'
export { UsageError } from './commands/usage-error.js'
