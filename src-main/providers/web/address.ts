import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ProviderError } from '../provider';

/**
 * The analyst may ask for any URL, and a URL is outsiders' text (a search result, a feed link):
 * page fetches must not reach this machine or the PM's network (SSRF). Only http(s) to public
 * addresses; a name is resolved and every address it resolves to must be public.
 */

const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface AddressPolicy {
  /** Tests only: let 127.0.0.1 / ::1 through (nothing else private). */
  allowLoopback?: boolean;
  /** DNS resolution (tests inject one; default the system resolver). */
  lookup?: Lookup;
}

/** Throws ProviderError('bad_params') unless `raw` is an http(s) URL whose host is a public address. */
export async function assertPublicUrl(raw: string, policy: AddressPolicy = {}): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError(`"${raw.slice(0, 200)}" is not a URL.`, 'bad_params');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProviderError(`Only http and https pages can be fetched (not ${url.protocol}).`, 'bad_params');
  if (url.username || url.password) throw new ProviderError('A URL with a user name or password in it is not fetched.', 'bad_params');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch {
      throw new ProviderError(`Could not find the site ${host} (its name does not resolve).`, 'not_found');
    }
    if (!addresses.length) throw new ProviderError(`Could not find the site ${host} (its name does not resolve).`, 'not_found');
  }
  for (const a of addresses) {
    if (!isPublicAddress(a, policy.allowLoopback ?? false)) {
      throw new ProviderError(`${host} is a private or local address (${a}); only public web pages can be fetched.`, 'bad_params');
    }
  }
  return url;
}

export function isPublicAddress(address: string, allowLoopback = false): boolean {
  const v4 = mappedIpv4(address);
  const family = v4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
  if (!family) return false;
  const a = v4 ?? address;
  if (allowLoopback && LOOPBACK.check(a, family)) return true;
  return !NOT_PUBLIC.check(a, family);
}

/** `::ffff:7f00:1` and `::ffff:127.0.0.1` are IPv4 addresses in IPv6 clothing: judge the IPv4 inside. */
function mappedIpv4(address: string): string | null {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2]!, 16);
  const lo = Number.parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
