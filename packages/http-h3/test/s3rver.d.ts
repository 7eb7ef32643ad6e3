// s3rver 3.7.1 ships no types: the little the file-store tests use.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number
    address?: string
    silent?: boolean
    directory?: string
    configureBuckets?: Array<{ name: string; configs?: unknown[] }>
    resetOnClose?: boolean
  }
  export default class S3rver {
    constructor(options?: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
