/**
 * unstorage's fs driver writes files in place, so a crash mid-write leaves a truncated file:
 * a design or account lost. This wraps the driver so every write goes to a temporary file
 * and is renamed over the target (atomic on POSIX filesystems); reads, listing and key
 * mapping stay the driver's own. Temporary files live in `<base>/.litho-tmp/`, which the
 * listing ignores; store keys never contain a dot, so they cannot collide with it.
 *
 * @module kit/atomic-fs-driver
 */
import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Driver } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'

const TMP = '.litho-tmp'

/** The unstorage fs driver with atomic writes. `base` is the directory. */
export function atomicFsDriver(options: { base: string }): Driver {
  const root = resolve(options.base)
  // No default ignores: `node_modules` and `.git` are valid ids; only our temp folder is skipped.
  const inner = fsDriver({ base: root, ignore: [`**/${TMP}/**`] }) as Driver
  // The driver maps `a:b:c` to `<root>/a/b/c`; rename needs the same path.
  const pathOf = (key: string): string => join(root, ...key.split(':'))

  const write = async (key: string, data: string | Uint8Array): Promise<void> => {
    const target = pathOf(key)
    const temporary = join(root, TMP, randomUUID())
    await mkdir(dirname(temporary), { recursive: true })
    await mkdir(dirname(target), { recursive: true })
    await writeFile(temporary, data)
    try {
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  return {
    ...inner,
    name: 'fs-atomic',
    setItem: (key, value) => write(key, value),
    setItemRaw: (key, value) => write(key, value instanceof Uint8Array ? value : Buffer.from(value as ArrayBuffer)),
  }
}
