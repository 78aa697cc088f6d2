import { lookup, LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The range an address is in when it is not a public unicast one (loopback, private, linkLocal,
 * unspecified, uniqueLocal, carrierGradeNat, multicast, reserved, ...), else null. IPv4-mapped IPv6
 * addresses are judged as the IPv4 address they carry.
 */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/** A URL's host as an address or a name: without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Every address a host name resolves to (an IP literal: itself). Rejects when it does not resolve. */
export async function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  return new Promise((resolve, reject) =>
    lookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );
}

export class NonPublicAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address}, a ${range} address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses: the check is made on the very
 * address the socket then connects to, so a name that resolved to a public address when the webhook
 * was created and to a private one now (DNS rebinding) is refused. Handles both the single-address
 * and the `all` form (Node's happy-eyeballs connect asks for all).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((a) => nonPublicRange(a.address) !== null);
    if (refused)
      return callback(new NonPublicAddressError(hostname, refused.address, nonPublicRange(refused.address)!), '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
