// Uploads and privacy:
// - evidence type and size come from the content (magic bytes), never from the declared Content-Type or
//   file name; path traversal in dispute ids / evidence paths is rejected (../, encoded, absolute, NUL);
//   evidence is readable by the parties, the assigned resolver and APPEALS_ROLE holders only;
// - after a vault delete no off-chain row of the user remains in any api table except those the decisions
//   keep (enumerated from information_schema, so a new table cannot be missed), and a re-index into a
//   fresh schema with the reactors replaying the whole journal brings none back.
import { createHash } from "node:crypto";
import pg from "pg";
import { type Abi, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi, operatorRegistryAbi } from "../../abis/index.ts";
import { anvilAccount, RESOLVER_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";
import { startIndexer, type IndexerHandle } from "../../script/lib/indexer.ts";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let db: pg.Pool;
let reindexer: IndexerHandle | undefined;
const poster = anvilAccount(1), performer = anvilAccount(2), other = anvilAccount(3), appeals = anvilAccount(7);
const resolver = anvilAccount(RESOLVER_ACCOUNT_INDEX);
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi(
    { REACTORS_POLL_MS: "50", RATE_LIMIT_STORE: "postgres", KEEPER_INTERVAL_MS: "0", EVIDENCE_DIR: `/tmp/privacy-evidence-${Date.now()}` },
    { indexer: true },
  );
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 3 });
  const relayer = api.server.deps.operator!; // the executor the pool forwards through
  await chain.send(resolver, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [relayer, true]);
  const role = await chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "APPEALS_ROLE" });
  await chain.escrow(chain.faucet, "grantRole", [role, appeals.address]);
  for (const u of [poster, performer, other, appeals, resolver]) tokens.set(u.address, await signIn(api.url, u));
}, 110_000);
afterAll(async () => {
  await reindexer?.stop();
  await api?.stop();
  await db?.end();
});

let disputeId = "";
const upload = (who: { address: Address } | null, type: string, bytes: Uint8Array, declared: { name: string; type: string }, id = disputeId) => {
  const form = new FormData();
  form.set("evidence", new Blob([bytes], { type: declared.type }), declared.name);
  form.set("type", type);
  return fetch(`${api.url}/resolver/disputes/${id}/evidence`, { method: "POST", body: form, headers: who ? { Authorization: `Bearer ${tok(who)}` } : {} })
    .then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as any }));
};
const read = (who: { address: Address } | null, type: string, id = disputeId) =>
  fetch(`${api.url}/resolver/disputes/${id}/evidence?type=${type}`, { headers: who ? { Authorization: `Bearer ${tok(who)}` } : {} });

describe("evidence", () => {
  it("a disputed mission over the API", async () => {
    const c = await call(api.url, "POST", "/missions", {
      token: tok(poster), body: { title: "Privacy", description: "evidence rules", rewardAmount: "12.5", category: "other", expiresIn: 3600 },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const id = c.body.data.id as string;
    expect((await call(api.url, "POST", `/missions/${id}/accept`, { token: tok(performer) })).status).toBe(200);
    expect((await call(api.url, "POST", `/missions/${id}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } })).status).toBe(200);
    const d = await call(api.url, "POST", `/missions/${id}/dispute`, { token: tok(poster), body: { reason: "not done" } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    disputeId = d.body.data.disputeId;
  }, 60_000);

  it("type and size come from the content, not the declared Content-Type or file name", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    // A PNG declared as text: accepted and served as image/png.
    const a = await upload(poster, "poster", png, { name: "notes.txt", type: "text/plain" });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.evidenceHash).toBe(`0x${createHash("sha256").update(png).digest("hex")}`);
    const g = await read(poster, "poster");
    expect(g.status).toBe(200);
    expect(g.headers.get("content-type")).toBe("image/png");
    expect(g.headers.get("x-content-type-options")).toBe("nosniff");
    expect(g.headers.get("content-disposition")).toMatch(/^attachment/);
    // An executable / archive / GIF declared as a PNG: refused by its bytes.
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]);
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]);
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0]);
    for (const bytes of [elf, zip, gif]) {
      const r = await upload(poster, "poster", bytes, { name: "photo.png", type: "image/png" });
      expect(r.status, JSON.stringify(r.body)).toBe(415);
      expect(r.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    // HTML declared as an image is only ever text/plain, as an attachment with nosniff (no stored XSS).
    const html = new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>");
    const h = await upload(performer, "performer", html, { name: "x.png", type: "image/png" });
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    const hr = await read(performer, "performer");
    expect(hr.headers.get("content-type")).toBe("text/plain");
    expect(hr.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(hr.headers.get("content-security-policy")).toContain("default-src 'none'");
    // Size from the bytes: 5 MiB + 1 declared as a tiny PDF.
    const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61);
    const b = await upload(poster, "poster", big, { name: "small.pdf", type: "application/pdf" });
    expect(b.status).toBe(413);
    expect(b.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    // The stored evidence did not change through the refusals.
    const d = await call(api.url, "GET", `/resolver/disputes/${disputeId}`);
    expect(d.body.posterEvidenceHash).toBe(a.body.evidenceHash);
  }, 60_000);

  it("path traversal in ids and evidence paths is rejected, never served", async () => {
    const ids = [
      "..%2F..%2F..%2Fetc%2Fpasswd", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "..%252F..%252Fetc%252Fpasswd", "%2Fetc%2Fpasswd",
      "..%5C..%5Cwindows", `${"0".repeat(8)}%00`, "%00", `0x${"a".repeat(64)}%2F..%2F..`, encodeURIComponent("/tmp/privacy-evidence"),
    ];
    const types = ["../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "poster%00", "poster/../performer"];
    const seen: number[] = [];
    for (const id of ids) {
      for (const res of [await read(poster, "poster", id), await fetch(`${api.url}/resolver/disputes/${id}`)]) {
        seen.push(res.status);
        expect([400, 404], `GET ${id} -> ${res.status}`).toContain(res.status);
        expect(await res.text()).not.toMatch(/root:|PNG/);
      }
      const up = await upload(poster, "poster", new TextEncoder().encode("x"), { name: "../../../../tmp/pwn", type: "text/plain" }, id);
      expect([400, 404], `POST ${id} -> ${up.status}`).toContain(up.status);
    }
    for (const t of types) {
      const res = await fetch(`${api.url}/resolver/disputes/${disputeId}/evidence?type=${t}`, { headers: { Authorization: `Bearer ${tok(poster)}` } });
      expect(res.status, `type=${t}`).toBe(400);
    }
    // A file name with traversal is ignored: the file lands under its hash only.
    const text = new TextEncoder().encode("traversal name");
    const ok = await upload(poster, "poster", text, { name: "../../../../../tmp/evidence-traversal-pwned", type: "text/plain" });
    expect(ok.status).toBe(200);
    expect(ok.body.evidenceHash).toBe(`0x${createHash("sha256").update(text).digest("hex")}`);
    const fs = await import("node:fs");
    expect(fs.existsSync("/tmp/evidence-traversal-pwned")).toBe(false);
    expect(seen.length).toBe(ids.length * 2);
  });

  it("readable only by the parties, the assigned resolver and APPEALS_ROLE holders", async () => {
    expect((await read(poster, "poster")).status).toBe(200);
    expect((await read(performer, "poster")).status).toBe(200);
    expect((await read(appeals, "poster")).status).toBe(200);
    expect((await read(resolver, "poster")).status).toBe(403); // a resolver, not (yet) the assigned one
    expect((await read(other, "poster")).status).toBe(403);
    expect((await read(other, "performer")).status).toBe(403);
    const anon = await read(null, "poster");
    expect(anon.status).toBe(401);
    const take = await call(api.url, "POST", `/resolver/disputes/${disputeId}/take`, { token: tok(resolver) });
    expect(take.status, JSON.stringify(take.body)).toBe(200);
    expect((await read(resolver, "poster")).status).toBe(200);
    expect((await read(other, "poster")).status).toBe(403);
  }, 60_000);
});

// ---- vault delete ---------------------------------------------------------------------------------

/** Tables the decisions keep after a delete ("Vault delete", "Account after delete"), with why. */
const KEPT: Record<string, string> = {
  users: "reset in place: id and wallet address stay, personal fields blank",
  vaults: "reset to default permissions",
  vault_deletions: "the record of the deletion itself",
  vault_export_logs: "audit, purged after 90 days",
  mission_details: "mission texts belong to the other party too",
  discovery_missions: "the discovery read model: public chain facts and the mission texts, kept like mission_details",
  mission_proofs: "proof of work belongs to the mission",
  dispute_records: "dispute records belong to the other party too",
  dispute_evidence: "dispute records belong to the other party too",
  dispute_resolutions: "dispute records belong to the other party too",
  ratings: "mirror of on-chain attestations",
  achievement_mints: "mirror of on-chain NFTs",
  relayer_outbox: "the relayer's record of public on-chain transactions",
  // Abuse limits that a deletion must not reset (only the `relay:<address>` key: checked below).
  rate_limit_buckets: "the wallet's relayed-transaction budget for the hour",
  faucet_claims: "the faucet's hourly limit of the address (its payout is a public mint)",
  // Present only when a broadcast was replaced (a stuck tx): each signed copy sent to the network.
  relayer_broadcasts: "the relayer's record of every broadcast of a replaced transaction (public, purged with the outbox)",
  // Only rows addressed to someone else (checked below): the counterpart's notification names the
  // deleted user's public wallet address as the mission's other party; it is the recipient's data.
  notifications: "other recipients' notifications naming the user's public address",
  // Likewise a counterpart's webhook deliveries (their endpoint, their log) about a shared mission; the
  // user's own endpoints and their deliveries are deleted (checked below).
  webhook_deliveries: "other users' webhook deliveries naming the user's public address",
  webhook_attempts: "other users' webhook attempt logs",
};
const ownNotifications = async (address: string) =>
  Number((await db.query(`SELECT count(*) AS n FROM api.notifications WHERE lower(address) = $1`, [address.toLowerCase()])).rows[0].n);

/** Every api table (from information_schema) with a row naming the user's address or id, and how many. */
async function rowsOf(address: string, userId: string): Promise<Record<string, number>> {
  const cols = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'api' AND data_type IN ('text', 'character varying', 'uuid', 'jsonb', 'json')
      ORDER BY table_name, ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of cols.rows) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  const out: Record<string, number> = {};
  const addr = address.toLowerCase(), bare = addr.slice(2);
  for (const [table, columns] of byTable) {
    // Any column containing the address (any case, with or without 0x, also inside JSON or calldata) or the id.
    const where = columns.map((c) => `lower("${c}"::text) LIKE '%' || $1 || '%' OR lower("${c}"::text) LIKE '%' || $2 || '%'`).join(" OR ");
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM api."${table}" WHERE ${where}`, [bare, userId]);
    if (rows[0].n > 0) out[table] = rows[0].n;
  }
  return out;
}

async function waitReactorsAt(head: bigint) {
  for (let i = 0; i < 600; i++) {
    if (await reactorPassed(db, api.server.env.CHAIN_SCHEMA, "notifications", head)) return;
    await sleep(100);
  }
  throw new Error("the notifications reactor did not catch up");
}

describe("vault delete", () => {
  it("leaves no off-chain row of the user outside the kept tables, and a re-index with a full reactor replay brings none back", async () => {
    const me = poster, token = tok(poster);
    const userId = (await db.query(`SELECT id FROM api.users WHERE evm_address = $1`, [me.address.toLowerCase()])).rows[0].id as string;
    // Fill the deletable categories over the API.
    expect((await call(api.url, "PATCH", "/users/me", { token, body: { displayName: "Polly Poster", bio: "private bio" } })).status).toBe(200);
    expect((await call(api.url, "PATCH", "/notifications/preferences", { token, body: { xpUpdates: false } })).status).toBe(200);
    expect((await call(api.url, "POST", "/notifications/register-device", { token, body: { token: "apns-privacy", platform: "ios" } })).status).toBe(200);
    expect((await call(api.url, "POST", "/vault/sync", { token, headers: { "Idempotency-Key": "privacy-1" } })).status).toBe(200);
    expect((await call(api.url, "GET", "/vault/export", { token })).status).toBe(200);
    await call(api.url, "POST", "/auth/message", { body: { address: me.address } });
    await call(api.url, "GET", "/feed/search?q=privacy", { token });
    const hook = await call(api.url, "POST", "/webhooks", { token, body: { url: "https://93.184.215.14/privacy-hook", events: ["mission.accepted"] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const head = await chain.client.getBlockNumber();
    await api.indexer!.waitForBlock(head);
    await waitReactorsAt(head);
    const before = await rowsOf(me.address, userId);
    for (const t of ["notifications", "device_tokens", "notification_preferences", "idempotency_keys", "rate_limit_buckets", "auth_nonces", "webhook_endpoints"]) {
      expect(before[t] ?? 0, `${t} before the delete`).toBeGreaterThan(0);
    }
    const performerNotes = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM api.notifications WHERE address = $1`, [performer.address.toLowerCase()])).rows[0].n);
    const performerBefore = await performerNotes();
    expect(performerBefore).toBeGreaterThan(0);

    const del = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const after = await rowsOf(me.address, userId);
    const unexpected = Object.keys(after).filter((t) => !(t in KEPT));
    expect(unexpected, `tables still holding the user's rows: ${JSON.stringify(after)}`).toEqual([]);
    expect(await ownNotifications(me.address), "the user's own notifications").toBe(0);
    const buckets = await db.query(`SELECT key FROM api.rate_limit_buckets WHERE lower(key) LIKE '%' || $1 || '%' OR key LIKE '%' || $2 || '%'`, [me.address.toLowerCase().slice(2), userId]);
    expect(buckets.rows.map((r) => r.key).filter((k) => k !== `relay:${me.address.toLowerCase()}`), "request-limiter buckets of the user").toEqual([]);
    const ownHooks = await db.query(`SELECT count(*)::int AS n FROM api.webhook_endpoints WHERE user_id = $1`, [userId]);
    expect(ownHooks.rows[0].n, "the user's own webhook endpoints").toBe(0);
    const u = (await db.query(`SELECT display_name, bio, avatar, solana_address FROM api.users WHERE id = $1`, [userId])).rows[0];
    expect(u).toEqual({ display_name: "", bio: "", avatar: "", solana_address: null });

    // Re-index from scratch into a fresh schema behind the same views while the API runs, and make the
    // reactors replay the whole journal (cursor reset): the deleted user's notifications stay gone.
    const views = api.server.env.CHAIN_SCHEMA;
    await api.indexer!.stop();
    await db.query(`DELETE FROM api.reactor_cursors WHERE reactor = 'notifications'`);
    reindexer = await startIndexer({
      databaseUrl: inject("databaseUrl"), rpcUrl: inject("rpcUrl"), wsUrl: inject("wsUrl"), deploymentFile: inject("deploymentFile"),
      schema: `ponder_privacy_${Date.now().toString(36)}`, viewsSchema: views, port: api.indexer!.port,
    });
    const head2 = await chain.client.getBlockNumber();
    await reindexer.waitForBlock(head2);
    await waitReactorsAt(head2);
    const again = await rowsOf(me.address, userId);
    expect(await ownNotifications(me.address), "the deleted user's notifications after the replay").toBe(0);
    expect(again.notifications ?? 0).toBe(after.notifications ?? 0);
    expect(Object.keys(again).filter((t) => !(t in KEPT))).toEqual([]);
    // The replay is real: the other party's notifications are all there, none doubled.
    expect(await performerNotes()).toBe(performerBefore);
    console.log(`privacy: before delete ${JSON.stringify(before)}; after ${JSON.stringify(after)}; after re-index ${JSON.stringify(again)}`);
  }, 110_000);
});
