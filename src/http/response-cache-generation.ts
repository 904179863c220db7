import { onCommittedWrite, watchCommittedWrites, writeGeneration, type Db } from '../db';

/**
 * Where the response cache learns the data generation: a value that changes after every
 * committed write, so an entry keyed by the generation it was rendered at can never be served
 * once the data it shows has changed (docs/performance.md "Response cache"). A source shared by
 * several instances (Redis, src/http/shared-store.ts) implements the same interface.
 */
export interface GenerationSource {
  /** The generation now. Read it before the data a response shows. */
  current(): string | Promise<string>;
  /** Stops listening for writes. */
  close(): void;
}

/**
 * The writes of this process only (every write transaction after its commit, every write
 * statement outside a transaction): no statement per request. Right only when this process is
 * the database's only writer.
 */
export function processGenerations(db: Db): GenerationSource {
  let local = 0;
  watchCommittedWrites(db);
  const stop = onCommittedWrite(() => {
    local++;
  });
  return { current: () => String(local), close: stop };
}

/**
 * The database's write generation (`list_generations`, which every calendar write transaction
 * of any process increments: other servers, workers, the CLI) beside this process's own count
 * (which also sees writes made outside those transactions, such as fixtures): one read of at
 * most 16 rows per request, shared by the requests that arrive while another read runs.
 */
export function databaseGenerations(db: Db): GenerationSource {
  const local = processGenerations(db);
  const read = async () => `${await writeGeneration(db)}.${await local.current()}`;
  // A request may share only a read sent after it arrived (an earlier one may predate a write
  // its client already saw acknowledged): it joins the read queued behind the running one.
  let queued: Promise<string> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    current: () => {
      if (queued) return queued;
      const next = running.then(() => {
        queued = undefined;
        return read();
      });
      queued = next;
      running = next.catch(() => undefined);
      return next;
    },
    close: () => local.close(),
  };
}
