/**
 * `@litho/console`: the built Litho Console, a static single-page app (Preact, built with
 * Vite) that `@litho/http-h3` serves at `{base_url}/console`. This entry only says where the
 * built files are; the app itself runs in the browser (docs/console.md).
 *
 * @module console
 */
import { fileURLToPath } from 'node:url'

/**
 * The directory of the built app: `index.html` and `assets/` (content-hashed file names).
 *
 * @example serveConsole({ assetsDir: consoleAssetsDir })
 */
export const consoleAssetsDir: string = fileURLToPath(new URL('../dist/app/', import.meta.url))

/** The `client_id` of the console: the first-party public OAuth client the server registers for itself. */
export const CONSOLE_CLIENT_ID = 'litho-console'
