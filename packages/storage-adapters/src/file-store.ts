/**
 * File stores (the `FileStore` port of `@litho/core/contracts`): stored renders, served by
 * public URL or by expiring signed URL. Five factories, one behaviour (the file-store suite of
 * `@litho/testing` checks each):
 *
 * - {@link memoryFileStore}, {@link fsFileStore}, {@link redisFileStore} and
 *   {@link unstorageFileStore} (any unstorage instance you give) keep files in an app-served
 *   backend. Their signed URLs are `<publicBaseUrl>/<key>?exp=…&kid=…&sig=…`, made
 *   with a `UrlSigner` (`createUrlSigner` of `@litho/core`) over the path `/<key>`; the HTTP
 *   app checks them with {@link verifyFileRequest} (same signer) before calling `get`.
 * - {@link s3FileStore} keeps files in an S3 bucket (any S3 API: AWS, R2, MinIO, s3rver); its
 *   signed URLs are SigV4 presigned GETs that S3 itself checks (`capabilities.presigned`).
 *
 * Layout of the app-served stores (`base` defaults to `litho:files`). A key `a/b.png` becomes the
 * storage path `<base>:a:b,png` (each `.` written as `,`, which keys never contain, so no stored
 * name starts with a dot, holds `..`, or meets the fs driver's temp folder), under which:
 * - `…:=meta` → `{"v":1,"version":"…","file":{…StoredFile}}`, as JSON;
 * - `…:=v<version>` → the bytes of that version.
 * Leaf names start with `=`, never part of a key, so the file `a` and the file `a/b` never
 * collide (on fs, `a` is a directory in both).
 *
 * Write order, so a crash never leaves anything `get` could return half-written: `put` writes
 * the bytes under a new version, then the record naming it (one atomic write: temp file and
 * rename on fs, one SET on Redis), then removes the previous version. `delete` removes the
 * record first, then the bytes. A crash can leave an orphan version (bytes nobody names): it
 * wastes space and is never returned.
 *
 * @module file-store
 */
export { verifyFileRequest, type AppServedFileStoreOptions, type FileRequestVerdict } from './kit/file-store.js'
export { memoryFileStore, type MemoryFileStoreOptions } from './memory/file-store.js'
export { fsFileStore, type FsFileStoreOptions } from './fs/file-store.js'
export { redisFileStore, type RedisFileStoreOptions } from './redis/file-store.js'
export { s3FileStore, type S3Acl, type S3FileStoreOptions } from './s3/file-store.js'
export { unstorageFileStore, type UnstorageFileStoreOptions } from './unstorage/file-store.js'
