// Removes what a test run wrote to the real Redis (127.0.0.1:6379) under its own key prefix.

/** Deletes every key under `${prefix}:`, in pages of 500 (SCAN, never KEYS). */
export async function deleteRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379'): Promise<void> {
  const { default: Redis } = await import('ioredis')
  const redis = new Redis(url)
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
  await redis.quit()
}
