/**
 * Deterministic random strings for property tests: `count` texts of up to `maxPieces - 1` pieces
 * drawn from `pieces` by a linear congruential generator started at `seed` (same seed, same
 * texts, so a failure reproduces).
 */
export function* seededTexts(
  pieces: readonly string[],
  maxPieces: number,
  count: number,
  seed: number,
): Generator<string> {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = next(maxPieces); j > 0; j--) text += pieces[next(pieces.length)];
    yield text;
  }
}
