// Literal addresses no outbound request may reach (docs/security.md#hostile-input): loopback, unspecified,
// link-local (cloud metadata), private, CGNAT, unique-local, and their mapped, NAT64 and
// numeric spellings. Used by the remote-image and the webhook tests alike.
export const BLOCKED_LITERAL_URLS: readonly string[] = Object.freeze([
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://[::1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
])
