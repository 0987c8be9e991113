// SSRF guard: a webhook may target only public unicast addresses. Checked at registration and again
// at connect time through the socket's own DNS lookup, so a name that later resolves elsewhere (DNS
// rebinding) is refused at the moment it matters.
import dns from "node:dns";
import net from "node:net";
import type { LookupFunction } from "node:net";

const blocked = new net.BlockList();
for (const [range, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(range, bits, "ipv4");
for (const [range, bits] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["64:ff9b::", 96], ["100::", 64],
] as const) blocked.addSubnet(range, bits, "ipv6");

/** True for loopback, private, link-local, shared, multicast, reserved and documentation addresses. */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  if (/^::ffff:/i.test(ip)) return true; // hex-form IPv4-mapped: refuse rather than parse
  return blocked.check(ip, "ipv6");
}

export class SsrfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SsrfError";
  }
}

/** Resolves `host` and throws SsrfError unless every address is public. */
export async function assertPublicHost(host: string): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = net.isIP(bare) ? [bare] : (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw new SsrfError(`${host} resolves to a non-public address (${bad})`);
}

/** A `lookup` for http.request that refuses non-public results. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, "", 4);
    const list = addresses as unknown as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new SsrfError(`${hostname} resolves to a non-public address (${bad.address})`), "", 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
