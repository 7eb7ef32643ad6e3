import { fileURLToPath } from 'node:url'

/** Tests run on the sources of sibling packages, not on their builds. */
export const alias = {
  '@litho/core/errors': fileURLToPath(new URL('./packages/core/src/errors.ts', import.meta.url)),
  '@litho/core/contracts': fileURLToPath(new URL('./packages/core/src/contracts/index.ts', import.meta.url)),
  '@litho/core': fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)),
  '@litho/testing/meter': fileURLToPath(new URL('./packages/testing/src/meter/index.ts', import.meta.url)),
  '@litho/testing/design-store': fileURLToPath(new URL('./packages/testing/src/design-store/index.ts', import.meta.url)),
  '@litho/testing/account-store': fileURLToPath(new URL('./packages/testing/src/account-store/index.ts', import.meta.url)),
  '@litho/testing/file-store': fileURLToPath(new URL('./packages/testing/src/file-store/index.ts', import.meta.url)),
  '@litho/testing/auth-state-store': fileURLToPath(new URL('./packages/testing/src/auth-state-store/index.ts', import.meta.url)),
  '@litho/testing/job-queue': fileURLToPath(new URL('./packages/testing/src/job-queue/index.ts', import.meta.url)),
  '@litho/testing/retention-index': fileURLToPath(new URL('./packages/testing/src/retention-index/index.ts', import.meta.url)),
  '@litho/testing': fileURLToPath(new URL('./packages/testing/src/index.ts', import.meta.url)),
  '@litho/storage-adapters/memory': fileURLToPath(new URL('./packages/storage-adapters/src/memory.ts', import.meta.url)),
  '@litho/storage-adapters/fs': fileURLToPath(new URL('./packages/storage-adapters/src/fs.ts', import.meta.url)),
  '@litho/storage-adapters/redis': fileURLToPath(new URL('./packages/storage-adapters/src/redis.ts', import.meta.url)),
  '@litho/storage-adapters/design-store': fileURLToPath(new URL('./packages/storage-adapters/src/design-store.ts', import.meta.url)),
  '@litho/storage-adapters/account-store': fileURLToPath(new URL('./packages/storage-adapters/src/account-store.ts', import.meta.url)),
  '@litho/storage-adapters/file-store': fileURLToPath(new URL('./packages/storage-adapters/src/file-store.ts', import.meta.url)),
  '@litho/storage-adapters/auth-state-store': fileURLToPath(new URL('./packages/storage-adapters/src/auth-state-store.ts', import.meta.url)),
  '@litho/storage-adapters/retention-index': fileURLToPath(new URL('./packages/storage-adapters/src/retention-index.ts', import.meta.url)),
  '@litho/storage-adapters/job-store': fileURLToPath(new URL('./packages/storage-adapters/src/job-store.ts', import.meta.url)),
  '@litho/storage-adapters/job-queue': fileURLToPath(new URL('./packages/storage-adapters/src/job-queue.ts', import.meta.url)),
  '@litho/storage-adapters': fileURLToPath(new URL('./packages/storage-adapters/src/index.ts', import.meta.url)),
  '@litho/auth-adapters': fileURLToPath(new URL('./packages/auth-adapters/src/index.ts', import.meta.url)),
  '@litho/http-h3': fileURLToPath(new URL('./packages/http-h3/src/index.ts', import.meta.url)),
}
