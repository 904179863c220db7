import type DataLoader from 'dataloader';

/** Seeds the row caches with rows a list query already fetched, so nested lookups cost nothing. */
export function primeAll<T extends { id: number }>(
  loader: DataLoader<number, T | undefined>,
  rows: T[],
): void {
  for (const row of rows) loader.clear(row.id).prime(row.id, row);
}
