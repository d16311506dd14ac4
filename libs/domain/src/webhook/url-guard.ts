import { MeridianError, validationError } from '#common';
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';

/** Where a webhook request goes: the URL, and the one address that was checked and will be connected to. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Ranges no webhook may reach unless allowed: loopback, private, link-local, shared, multicast, reserved. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:a.b.c.d`, also NAT64 `64:ff9b::a.b.c.d`) is judged as IPv4. */
function normalise(address: string): { address: string; family: 4 | 6 } {
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return { address: mapped[1], family: 4 };
  const hexMapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 4 };
  }
  return { address: lower, family: isIP(lower) === 6 ? 6 : 4 };
}

/**
 * Refuses webhook URLs that would make the server call itself or its private network (SSRF):
 * only `http:`/`https:`; every address the host resolves to must be outside the blocked ranges and
 * not one of this machine's own interface addresses, unless `WEBHOOK_ALLOWED_HOSTS` lists the host
 * name, the address or a CIDR range containing it. The host is resolved once, and the request is
 * then sent to the address checked (see the delivery worker), so a DNS answer that changes between
 * the check and the connection (rebinding) is never used.
 */
export class WebhookUrlGuard {
  private readonly hosts = new Set<string>();
  private readonly allowed = new BlockList();

  constructor(allowedHosts: string[]) {
    for (const entry of allowedHosts) {
      const [net, prefix] = entry.split('/');
      const bare = net.replace(/^\[|\]$/g, '');
      const family = isIP(bare);
      if (family && prefix !== undefined) this.allowed.addSubnet(bare, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
      else if (family) this.allowed.addAddress(bare, family === 6 ? 'ipv6' : 'ipv4');
      else this.hosts.add(entry.toLowerCase());
    }
  }

  /** Parses `raw` (422 when it is not an absolute URL) and checks its scheme (400 `WEBHOOK_URL_NOT_ALLOWED`). */
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw validationError({ url: ['Enter a valid URL.'] });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new MeridianError('WEBHOOK_URL_NOT_ALLOWED', 'Invalid schema. Only HTTP and HTTPS are allowed.');
    }
    if (url.username || url.password) throw validationError({ url: ['Credentials in the URL are not allowed.'] });
    if (!url.hostname) throw validationError({ url: ['Invalid URL: No hostname found.'] });
    return url;
  }

  /**
   * Resolves and checks `raw`; returns the address to connect to. 400 `WEBHOOK_URL_NOT_ALLOWED`
   * for a refused scheme or address, 400 `WEBHOOK_URL_UNRESOLVABLE` when the name does not resolve.
   */
  async check(raw: string): Promise<WebhookTarget> {
    const url = this.parse(raw);
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await lookup(host, { all: true, verbatim: true });
      } catch {
        throw new MeridianError('WEBHOOK_URL_UNRESOLVABLE', `The host name ${host} could not be resolved.`);
      }
      if (!addresses.length)
        throw new MeridianError('WEBHOOK_URL_UNRESOLVABLE', `The host name ${host} has no address.`);
    }
    const hostAllowed = this.hosts.has(host);
    for (const a of addresses) {
      if (!hostAllowed && !this.addressAllowed(a.address)) {
        throw new MeridianError(
          'WEBHOOK_URL_NOT_ALLOWED',
          `The URL resolves to ${a.address}, a loopback, private, link-local, reserved or this server's own address (allow it with WEBHOOK_ALLOWED_HOSTS).`,
        );
      }
    }
    const first = normalise(addresses[0].address);
    // connect to the address as resolved (an IPv4-mapped IPv6 address is connected to as IPv4)
    return { url, address: first.address, family: first.family };
  }

  private addressAllowed(raw: string): boolean {
    const { address, family } = normalise(raw);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (this.allowed.check(address, type)) return true;
    if (BLOCKED.check(address, type)) return false;
    return !ownAddresses().has(address);
  }
}

/** This machine's interface addresses (cached for a minute). */
let own: { at: number; set: Set<string> } | null = null;
function ownAddresses(): Set<string> {
  if (own && Date.now() - own.at < 60_000) return own.set;
  const set = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) set.add(normalise(i.address.split('%')[0]).address);
  }
  own = { at: Date.now(), set };
  return set;
}
