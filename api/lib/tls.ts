// HTTPS for the API when TLS_CERT_FILE and TLS_KEY_FILE are set: node:https with TLS 1.3 as the
// minimum (the spec's transport rule). The /ws websocket upgrades on the same server, so it is WSS.
// Without them the API speaks plain HTTP and belongs behind a TLS-terminating proxy (README).
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer, type ServerOptions } from "node:https";

export interface TlsServer {
  createServer: typeof createHttpsServer;
  serverOptions: ServerOptions;
}

/** The node-server options for HTTPS, or undefined for plain HTTP. Reads the files now: a bad path fails at start. */
export function tlsServer(env: { TLS_CERT_FILE?: string; TLS_KEY_FILE?: string }): TlsServer | undefined {
  if (!env.TLS_CERT_FILE || !env.TLS_KEY_FILE) return undefined;
  return {
    createServer: createHttpsServer,
    serverOptions: {
      cert: readFileSync(env.TLS_CERT_FILE),
      key: readFileSync(env.TLS_KEY_FILE),
      minVersion: "TLSv1.3",
    },
  };
}
