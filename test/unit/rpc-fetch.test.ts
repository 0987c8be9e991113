import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, TimeoutError } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcTransport } from "../../api/lib/rpc-fetch.ts";
import { isChainUnreachable } from "../../api/services/chain-errors.ts";

// A JSON-RPC node on loopback: eth_blockNumber answers 0x2a, eth_chainId a JSON-RPC error, "boom" a
// 502 with an HTML body, "hang" never answers; a batch is answered item by item.
let server: http.Server;
let url = "";
let requests = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests++;
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const msg = JSON.parse(body);
      const answer = (m: { id: number; method: string }) =>
        m.method === "eth_blockNumber" ? { jsonrpc: "2.0", id: m.id, result: "0x2a" } : { jsonrpc: "2.0", id: m.id, error: { code: -32000, message: "refused by the node" } };
      const first = Array.isArray(msg) ? msg[0] : msg;
      if (first.method === "hang") return;
      if (first.method === "boom") {
        res.writeHead(502, { "content-type": "text/html" }).end("<html>bad gateway</html>");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(msg) ? msg.map(answer) : answer(msg)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("rpcFetch: the API's viem HTTP transport over node:http", () => {
  it("answers calls and batches, over kept-alive connections", async () => {
    const client = createPublicClient({ transport: rpcTransport(url) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n);
    const batched = createPublicClient({ transport: rpcTransport(url, { batch: { wait: 0 } }) });
    const before = requests;
    const [a, b] = await Promise.all([batched.request({ method: "eth_blockNumber" }), batched.request({ method: "eth_blockNumber" })]);
    expect([a, b]).toEqual(["0x2a", "0x2a"]);
    expect(requests - before).toBe(1);
  });

  it("a JSON-RPC error stays the node's error (not 'unreachable')", async () => {
    const client = createPublicClient({ transport: rpcTransport(url, { retryCount: 0 }) });
    const err = await client.request({ method: "eth_chainId" }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain("refused by the node");
    expect(isChainUnreachable(err)).toBe(false);
  });

  it("an HTTP error, a refused connection and a timeout read as the chain being unreachable", async () => {
    const client = createPublicClient({ transport: rpcTransport(url, { retryCount: 0, timeout: 200 }) });
    const boom = await client.request({ method: "boom" } as never).catch((e: unknown) => e);
    expect(isChainUnreachable(boom)).toBe(true);
    const hang = await client.request({ method: "hang" } as never).catch((e: unknown) => e);
    expect(hang).toBeInstanceOf(TimeoutError);
    expect(isChainUnreachable(hang)).toBe(true);
    const closed = createPublicClient({ transport: rpcTransport("http://127.0.0.1:1", { retryCount: 0 }) });
    const refused = await closed.getBlockNumber().catch((e: unknown) => e);
    expect(isChainUnreachable(refused)).toBe(true);
  });

  it("closes an idle socket 1 s before the node's Keep-Alive hint, so no request meets the node's close", async () => {
    // A node that announces `Keep-Alive: timeout=3` and would close an idle socket after 3 s.
    const closedBy: string[] = [];
    const node = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":0,"result":"0x1"}'));
    node.keepAliveTimeout = 3_000;
    node.on("connection", (socket) => {
      const t0 = Date.now();
      socket.on("end", () => closedBy.push(`client after ${Date.now() - t0} ms`)); // the client's FIN
    });
    await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
    try {
      const client = createPublicClient({ transport: rpcTransport(`http://127.0.0.1:${(node.address() as AddressInfo).port}`, { retryCount: 0 }) });
      await client.request({ method: "eth_blockNumber" });
      await new Promise((r) => setTimeout(r, 2_600));
      // Closed by the client at ~2 s (the hint less 1 s), before the node's own close at 3 s.
      expect(closedBy).toHaveLength(1);
      expect(closedBy[0]).toMatch(/^client after (19\d\d|2[0-5]\d\d) ms$/);
    } finally {
      node.closeAllConnections();
      await new Promise((r) => node.close(r));
    }
  });
});
