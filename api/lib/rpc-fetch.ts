// The `fetchFn` of the API's viem HTTP transports: one JSON-RPC POST over node:http(s) with a
// keep-alive agent, answered as the small part of a fetch Response viem's transport reads (ok, status,
// statusText, headers.get, text; no body stream, so viem reads text() and checks its size). Node's
// fetch (undici, WHATWG streams) cost 2-5 ms of CPU a getBlock on this machine against 1 ms this way
// (docs/decisions.md "Writes at the floor: create to visible, fewer calls and cheaper ones (session
// 30)"), and a create makes several chain calls before its broadcast. Timeouts and aborts come from
// viem's own signal; a network error rejects, which viem reports as HttpRequestError (chain unreachable).
import http from "node:http";
import https from "node:https";
import { http as httpTransport, type HttpTransportConfig } from "viem";

type Init = { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal | null };

// An idle kept-alive socket is closed by this side before the node would close it: after the node's
// `Keep-Alive: timeout=N` hint less 1 s (Node's agent reads the hint only when it has a timeout of its
// own), else after IDLE_SOCKET_MS, undici's (Node fetch's) default. A request written on a socket the
// node is closing at that moment fails with ECONNRESET, and the broadcasts are sent with retryCount 0
// (api/services/relayer/send.ts). An in-flight request is not cut by it: Node destroys only free
// sockets on this timeout, and viem's own signal times requests.
const IDLE_SOCKET_MS = 4_000;
const keepAlive = { keepAlive: true, timeout: IDLE_SOCKET_MS };
const agents = { "http:": new http.Agent(keepAlive), "https:": new https.Agent(keepAlive) };

export interface RpcResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export function rpcFetch(url: string | URL, init: Init = {}): Promise<RpcResponse> {
  const target = typeof url === "string" ? new URL(url) : url;
  const agent = agents[target.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new TypeError(`rpcFetch: unsupported protocol ${target.protocol}`));
  const request = target.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(target, { method: init.method ?? "GET", headers: init.headers, agent, signal: init.signal ?? undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("close", () => {
        if (!res.complete) reject(new Error("socket hang up: the node closed the connection mid-answer"));
      });
      res.on("end", () => {
        const text = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        const headers = res.headers;
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: res.statusMessage ?? "",
          headers: {
            get(name: string) {
              const v = headers[name.toLowerCase()];
              return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
            },
          },
          body: null,
          text: async () => text,
          json: async () => JSON.parse(text),
        });
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** viem's HTTP transport for `url` with `rpcFetch` (the API's chain clients). */
export const rpcTransport = (url: string, config: Omit<HttpTransportConfig, "fetchFn"> = {}) =>
  httpTransport(url, { ...config, fetchFn: rpcFetch as unknown as typeof fetch });
