/**
 * "Did you mean …?": the closest of a set of known keys to a key that names nothing, by edit
 * distance (optimal string alignment: an insertion, a deletion, a substitution or a swap of two
 * neighbours costs 1), compared without case. Used for override keys that match no component
 * field, so a typo is answered with the key that was meant.
 *
 * @module design/suggest
 */

/** Keys longer than this are not compared (a suggestion for a 200-character typo helps nobody). */
const MAX_COMPARED_LENGTH = 128

/**
 * The edit distance between `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`.
 *
 * @example editDistance('titel.text', 'title.text', 3) // 1
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  // Three rows of the dynamic-programming table: two rows back for the swap of neighbours.
  let before = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1)
      current[j] = value
      if (value < rowMin) rowMin = value
    }
    if (rowMin > limit) return limit + 1
    ;[before, previous, current] = [previous, current, before]
  }
  return previous[b.length]!
}

/**
 * The known key closest to `input`, when it is close enough to be the one meant: at most one
 * edit for keys of up to 5 characters, two up to 9, three beyond. Ties go to the first in
 * `candidates`. Undefined when nothing is that close.
 *
 * @example closestKey('titel.text', ['title.text', 'subtitle.text']) // 'title.text'
 */
export function closestKey(input: string, candidates: readonly string[]): string | undefined {
  if (input.length === 0 || input.length > MAX_COMPARED_LENGTH) return undefined
  const lower = input.toLowerCase()
  const limit = lower.length <= 5 ? 1 : lower.length <= 9 ? 2 : 3
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of candidates) {
    if (candidate === input) continue
    const distance = editDistance(lower, candidate.toLowerCase(), Math.min(limit, bestDistance - 1))
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  return best
}
