import type { Config } from '../src/config';
import { globalId } from '../src/lib';

/**
 * Global ids of `Node` (docs/graphql.md "Lookups and node"). Events, venues and organizers share
 * one id space and already have a global id, `<site host>?id=<id>` (their `global_id`, the
 * ICS UID): it is their node id too. Categories and tags share another id space: `?term_id=`.
 */

export type NodeKey = { space: 'post' | 'term'; id: number };

export function postNodeId(config: Config, id: number): string {
  return globalId(config, id);
}

export function termNodeId(config: Config, id: number): string {
  return `${globalId(config, 0).slice(0, -'?id=0'.length)}?term_id=${id}`;
}

/** What a node id names, or null when it is not one of this site's. */
export function parseNodeId(config: Config, nodeId: string): NodeKey | null {
  const site = globalId(config, 0).slice(0, -'?id=0'.length);
  if (!nodeId.startsWith(`${site}?`)) return null;
  const match = /^(id|term_id)=([1-9]\d{0,15})$/.exec(nodeId.slice(site.length + 1));
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  return { space: match[1] === 'id' ? 'post' : 'term', id };
}
