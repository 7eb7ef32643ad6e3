// A throwaway CA and a leaf certificate for `hostname`, made with the openssl CLI, for tests
// that talk https to a local server: pass `caPem` as a policy's `ca`, and `key`/`cert` to
// https.createServer.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function throwawayTls(hostname: string, caName = 'Litho test CA'): { caPem: string; key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'litho-tls-'))
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  }
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${caName}`)
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${hostname}`)
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=DNS:${hostname}\n`)
  openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'san.ext')
  return { caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'), key: readFileSync(join(dir, 'leaf.key')), cert: readFileSync(join(dir, 'leaf.pem')) }
}
