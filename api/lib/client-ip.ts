// The client's IP as every transport sees it (HTTP requests and /ws upgrades): the first
// X-Forwarded-For hop only behind a proxy the operator runs (TRUST_PROXY), else the socket's peer.
export function clientIpFrom(forwardedFor: string | string[] | undefined, remote: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const header = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
    const first = header?.split(",")[0]?.trim();
    if (first) return first;
  }
  return remote ?? "unknown";
}
