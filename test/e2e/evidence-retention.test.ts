// One evidence file per dispute side on disk: a new upload replaces the side's previous file, which
// is deleted unless another dispute side's evidence is the same file. Real anvil, PostgreSQL, Ponder
// (shared) and API; the files are counted in the API's EVIDENCE_DIR.
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import type { Abi, Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { operatorOf } from "../../domain/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";

const DIR = `/tmp/retention-evidence-${Date.now()}`;
let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let poster: PrivateKeyAccount, performer: PrivateKeyAccount;
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const ok = (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};
const sha = (b: Uint8Array) => `0x${createHash("sha256").update(b).digest("hex")}`;
/** The evidence files on disk (hash names, without temporary files). */
const files = () =>
  fs.existsSync(DIR)
    ? fs.readdirSync(DIR).flatMap((sub) => fs.readdirSync(path.join(DIR, sub))).filter((f) => /^[0-9a-f]{64}$/.test(f)).map((f) => `0x${f}`).sort()
    : [];
const text = (s: string) => new TextEncoder().encode(s);

async function setUpUser() {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  tokens.set(u.address, await signIn(api.url, u));
  return u;
}
async function dispute(): Promise<string> {
  const body = { title: "Mow the lawn", description: "Front and back", category: "home", rewardAmount: "5", expiresIn: 3600 };
  const c = ok(await call(api.url, "POST", "/missions", { token: tok(poster), body }), 201);
  ok(await call(api.url, "POST", `/missions/${c.data.id}/accept`, { token: tok(performer) }));
  ok(await call(api.url, "POST", `/missions/${c.data.id}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } }));
  return ok(await call(api.url, "POST", `/missions/${c.data.id}/dispute`, { token: tok(poster), body: { reason: "not done" } })).data.disputeId;
}
async function upload(disputeId: string, bytes: Uint8Array, who = poster, side = "poster") {
  const form = new FormData();
  form.set("evidence", new Blob([bytes]), "e.txt");
  form.set("type", side);
  const r = await fetch(`${api.url}/resolver/disputes/${disputeId}/evidence`, { method: "POST", body: form, headers: { Authorization: `Bearer ${tok(who)}` } });
  return { status: r.status, body: await r.json() };
}
const read = (disputeId: string, side = "poster") =>
  fetch(`${api.url}/resolver/disputes/${disputeId}/evidence?type=${side}`, { headers: { Authorization: `Bearer ${tok(poster)}` } });

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", EVIDENCE_DIR: DIR }, { indexer: "shared" });
  [poster, performer] = [await setUpUser(), await setUpUser()];
});
afterAll(async () => {
  await api?.stop();
  fs.rmSync(DIR, { recursive: true, force: true });
});

describe("evidence retention", () => {
  it("re-uploads keep one file per side; a file another side uses stays", async () => {
    const a = await dispute();
    const versions = [1, 2, 3, 4, 5].map((i) => text(`Version ${i} of the poster's evidence.\n`));
    for (const v of versions) ok(await upload(a, v));
    expect(files()).toEqual([sha(versions[4]!)]);
    const r = await read(a);
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(versions[4]);

    // The performer's side is its own: one more file, and replacing it leaves the poster's alone.
    ok(await upload(a, text("Performer, first.\n"), performer, "performer"));
    ok(await upload(a, text("Performer, second.\n"), performer, "performer"));
    expect(files()).toEqual([sha(versions[4]!), sha(text("Performer, second.\n"))].sort());

    // Another dispute's poster uploads the same bytes: one file for both; replacing it on one side keeps it.
    const b = await dispute();
    ok(await upload(b, versions[4]!));
    expect(files()).toHaveLength(2);
    ok(await upload(a, text("Version 6.\n")));
    expect(files()).toEqual([sha(versions[4]!), sha(text("Performer, second.\n")), sha(text("Version 6.\n"))].sort());
    expect((await read(b)).status).toBe(200);
    ok(await upload(b, text("Dispute b, version 2.\n")));
    expect(files()).toEqual([sha(text("Performer, second.\n")), sha(text("Version 6.\n")), sha(text("Dispute b, version 2.\n"))].sort());
    const rows = await api.server.deps.database.pool.query("SELECT count(*)::int AS n FROM api.dispute_evidence WHERE evidence_hash = $1", [sha(versions[4]!)]);
    expect(rows.rows[0].n).toBe(0);
  });
});
