/**
 * The subject of a single read (and the venue and organizers nested in a single event read)
 * carries JSON-LD; lists and writes do not. Services mark such rows; `json_ld` resolvers check
 * the mark. A symbol key never reaches JSON.
 */
const SINGLE_READ = Symbol('single read');

/** Marks a row as the subject of a single read, so its `json_ld` is computed. */
export function asSingleRead<T extends object>(row: T): T {
  return { ...row, [SINGLE_READ]: true };
}

export function isSingleRead(row: object): boolean {
  return SINGLE_READ in row;
}
