// B8 baseline child (pinned to the server CPU): a bare `ws` server doing the same broadcast, the
// simplest way: no auth, each client's subscribe frame stores its cell, and a publish serialises the
// same mission:created message once (the public view, same size as the hub's) and scans every
// client, sending to those whose cell matches. Same 30 s ping heartbeat as the hub.
import http from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { atRate, serveRequests, wallNow } from "./ws-fanout-ipc.ts";

interface Client {
  ws: WebSocket;
  cells: Set<string>;
}

let messages: { cell: string; message: unknown }[] = [];
const clients = new Set<Client>();
const server = http.createServer();
const wss = new WebSocketServer({ server, maxPayload: 4096 });
wss.on("connection", (ws) => {
  const c: Client = { ws, cells: new Set() };
  clients.add(c);
  ws.on("close", () => clients.delete(c));
  ws.on("error", () => clients.delete(c));
  ws.on("message", (raw) => {
    try {
      const m = JSON.parse(raw.toString()) as { event: string; data: { geohash: string } };
      if (m.event === "subscribe:geohash") {
        c.cells.add(m.data.geohash);
        ws.send(JSON.stringify({ event: "subscribed", data: { geohash: m.data.geohash } }));
      }
    } catch {
      // a baseline: ignore junk
    }
  });
  ws.send(JSON.stringify({ event: "ready", data: { authenticated: false, address: null } }));
});
const heartbeat = setInterval(() => {
  for (const c of clients) c.ws.ping();
}, 30_000);

serveRequests(
  {
    async start(body: { messages: { cell: string; message: unknown }[] }) {
      messages = body.messages;
      const port = await new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
      );
      return { port };
    },
    clients: () => ({ clients: clients.size }),
    async run(body: { count: number; perSecond: number; startAt: number; offset: number }) {
      const out: { event: number; t: number; sent: number; fanoutMs: number }[] = [];
      await atRate(body.count, body.perSecond, body.startAt, (i) => {
        const event = (body.offset + i) % messages.length;
        const t = wallNow();
        const { cell, message } = messages[event]!;
        const data = JSON.stringify(message);
        let sent = 0;
        for (const c of clients) {
          if (c.cells.has(cell) && c.ws.readyState === c.ws.OPEN) {
            c.ws.send(data);
            sent++;
          }
        }
        out.push({ event, t, sent, fanoutMs: wallNow() - t });
      });
      return out;
    },
  },
  async () => {
    clearInterval(heartbeat);
    for (const c of clients) c.ws.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
    await new Promise<void>((r) => server.close(() => r()));
  },
);
