import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where an image fetch may connect (docs/security.md "Image fetching"): only to globally
 * routable unicast addresses, unless the address or the host name is on the allowlist
 * (`IMAGE_FETCH_ALLOW`). The check is on the resolved address, and the connection is pinned to
 * the address that passed it, so a second DNS answer (rebinding) cannot move it elsewhere.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A fetch that may not happen, or found nothing to connect to; `reason` completes "image …". */
export class ImageFetchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export const REFUSED = 'must not point to a private, loopback or link-local address';

/** The parsed `IMAGE_FETCH_ALLOW`: host names, and ranges (a single address is a full-length one). */
export interface FetchAllow {
  hosts: ReadonlySet<string>;
  ranges: readonly [Address, number][];
}

const parsed = new WeakMap<readonly string[], FetchAllow>();

export function parseAllow(items: readonly string[]): FetchAllow {
  const known = parsed.get(items);
  if (known) return known;
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const item of items) {
    if (item.includes('/')) ranges.push(ipaddr.parseCIDR(item));
    else if (ipaddr.IPv4.isValidFourPartDecimal(item) || ipaddr.IPv6.isValid(item)) {
      const address = ipaddr.parse(item);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(item.toLowerCase());
  }
  const allow = { hosts, ranges };
  parsed.set(items, allow);
  return allow;
}

/** IPv6 global unicast is 2000::/3; everything else there is special or unallocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Is this a public address? IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 it
 * carries; every range ipaddr.js names (private, loopback, link-local, 0.0.0.0/8, CGNAT,
 * multicast, unique-local, 6to4, Teredo, NAT64, documentation …) is refused.
 */
export function isPublicAddress(address: Address): boolean {
  if (address.range() !== 'unicast') return false;
  return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6);
}

function allowed(address: Address, allow: FetchAllow): boolean {
  return allow.ranges.some(
    ([range, bits]) => range.kind() === address.kind() && address.match(range, bits),
  );
}

/** `[::1]` → `::1`: URL host names keep IPv6 brackets. */
function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

export interface Pinned {
  address: string;
  family: 4 | 6;
  /** Let through by the allowlist (any port), not as a public address (web ports only). */
  listed: boolean;
}

/** Ports a public address is fetched on: WordPress's `wp_http_validate_url` allows these. */
const WEB_PORTS = new Set([80, 443, 8080]);

export const REFUSED_PORT = 'must use port 80, 443 or 8080';

/** The port of `url` may be fetched from `pinned` (any port on an allowlisted one). */
export function assertPort(url: URL, pinned: Pinned): void {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (!pinned.listed && !WEB_PORTS.has(port)) throw new ImageFetchError(REFUSED_PORT);
}

/**
 * The address to connect to for `hostname`: resolved (host names) or read (IP literals), then
 * the first that passes the policy. `deadline`: give up resolving at this time (ms since epoch).
 */
export async function pickAddress(
  hostname: string,
  allow: FetchAllow,
  deadline: number,
): Promise<Pinned> {
  const host = bare(hostname).toLowerCase();
  const candidates = ipaddr.isValid(host) ? [host] : await resolve(host, deadline);
  for (const candidate of candidates) {
    const address = ipaddr.process(candidate);
    const listed = allow.hosts.has(host) || allowed(address, allow);
    if (listed || isPublicAddress(address)) {
      return { address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6, listed };
    }
  }
  throw new ImageFetchError(REFUSED);
}

async function resolve(host: string, deadline: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ImageFetchError('could not be fetched in time')),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    const answers = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
    return answers.map((a) => a.address);
  } catch (error) {
    if (error instanceof ImageFetchError) throw error;
    throw new ImageFetchError('could not be fetched: its host name does not resolve');
  } finally {
    clearTimeout(timer);
  }
}

/** A `lookup` for node:http that answers only the checked address: the connection is pinned. */
export function pinnedLookup(pinned: Pinned): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}
