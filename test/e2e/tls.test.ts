// TLS 1.3 (spec: "Transport uses TLS 1.3"): with TLS_CERT_FILE and TLS_KEY_FILE the API serves HTTPS
// and WSS on one port, refuses TLS 1.2 and plain HTTP. The certificate is self-signed, made here with
// the openssl CLI, and the clients trust exactly it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApi, type TestApi } from "./api-helpers.ts";

let api: TestApi;
let tmp: string;
let ca: Buffer;
let port: number;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "api-tls-"));
  const cert = path.join(tmp, "cert.pem");
  const key = path.join(tmp, "key.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ], { stdio: "pipe" });
  ca = fs.readFileSync(cert);
  api = await startTestApi({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
  port = Number(new URL(api.url).port);
});

afterAll(async () => {
  await api?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** One TLS handshake with the given version bounds: the negotiated protocol, or the error. */
function handshake(options: tls.ConnectionOptions): Promise<{ protocol: string | null } | { error: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port, servername: "localhost", ca, ...options }, () => {
      const protocol = socket.getProtocol();
      socket.end();
      resolve({ protocol });
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve({ error }));
  });
}

function get(pathname: string): Promise<{ status: number; body: any; protocol: string | null }> {
  return new Promise((resolve, reject) => {
    const req = https.get({ host: "127.0.0.1", port, path: pathname, servername: "localhost", ca, agent: false }, (res) => {
      // Read before the end: the socket is detached from the response once it is consumed.
      const protocol = (res.socket as tls.TLSSocket).getProtocol();
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), protocol }));
    });
    req.once("error", reject);
  });
}

describe("TLS", () => {
  it("listens on an https:// URL", () => {
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("refuses a client limited to TLS 1.2", async () => {
    const result = await handshake({ minVersion: "TLSv1.2", maxVersion: "TLSv1.2" });
    expect(result).toHaveProperty("error");
    if ("error" in result) expect(result.error.code).toMatch(/PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION/);
  });

  it("accepts TLS 1.3", async () => {
    expect(await handshake({ minVersion: "TLSv1.3" })).toEqual({ protocol: "TLSv1.3" });
  });

  it("answers GET /health and /config over HTTPS with TLS 1.3", async () => {
    const health = await get("/health");
    expect(health.protocol).toBe("TLSv1.3");
    // No indexer in this file: the database is up, the indexer is not, so 503 with the checks.
    expect(health.status).toBe(503);
    expect(health.body.checks.database).toBe(true);
    const config = await get("/config");
    expect(config.status).toBe(200);
    expect(config.body.chainId).toBe(31337);
  });

  it("does not answer plain HTTP on the TLS port", async () => {
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it("serves the /ws websocket as WSS", async () => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca });
    try {
      const first = await new Promise<{ event: string }>((resolve, reject) => {
        ws.once("message", (raw) => resolve(JSON.parse(raw.toString())));
        ws.once("error", reject);
      });
      expect(first.event).toBe("ready");
      expect((ws as unknown as { _socket: tls.TLSSocket })._socket.getProtocol()).toBe("TLSv1.3");
      ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: "u281z" } }));
      const reply = await new Promise<{ event: string; data: { geohash: string } }>((resolve) =>
        ws.once("message", (raw) => resolve(JSON.parse(raw.toString()))),
      );
      expect(reply).toMatchObject({ event: "subscribed", data: { geohash: "u281z" } });
    } finally {
      ws.terminate();
    }
  });
});
