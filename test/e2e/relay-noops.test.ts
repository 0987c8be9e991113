// Relayed writes that would change nothing are refused before anything is simulated or sent: the
// relayer's nonce and its outbox stay as they were. Real anvil, PostgreSQL, Ponder (shared) and API.
import type { Abi, Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { operatorOf } from "../../domain/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let poster: PrivateKeyAccount, performer: PrivateKeyAccount;
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;

const expectError = (res: { status: number; body: any }, status: number, code: string, says: RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
  expect(res.body.error.message).toMatch(says);
};
const ok = (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};
/** What a relayed write leaves behind: the relayer's pending nonce and the outbox's size. */
const sent = async () => ({
  nonce: await chain.client.getTransactionCount({ address: chain.deployment.relayer as Address, blockTag: "pending" }),
  outbox: Number((await api.server.deps.database.pool.query("SELECT count(*) AS n FROM api.relayer_outbox")).rows[0].n),
});
/** `fn` answers as `check` says and sends nothing. */
async function refusedUnsent(fn: () => Promise<{ status: number; body: any }>, status: number, code: string, says: RegExp) {
  const before = await sent();
  expectError(await fn(), status, code, says);
  expect(await sent()).toEqual(before);
}
async function setUpUser() {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  tokens.set(u.address, await signIn(api.url, u));
  return u;
}
const details = { title: "Paint the fence", description: "White, two coats", category: "home", metadata: { b: 1, a: { y: 2, x: [1, 2] } } };

beforeAll(async () => {
  chain = chainEnv();
  // No reactors or keeper: nothing but the requests here may move the relayer's nonce.
  api = await startTestApi({ REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", EVIDENCE_DIR: `/tmp/noop-evidence-${Date.now()}` }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  [poster, performer] = [await setUpUser(), await setUpUser()];
  tokens.set(chain.guildAdmin.address, await signIn(api.url, chain.guildAdmin));
});
afterAll(async () => {
  await api?.stop();
});

describe("no-op writes are refused before sending", () => {
  it("guild join when already a member, leave when not a member", async () => {
    const demo = (await call(api.url, "GET", "/guilds")).body.find((g: any) => g.name === "demo-guild");
    const join = () => call(api.url, "POST", `/guilds/${demo.id}/join`, { token: tok(performer) });
    const leave = () => call(api.url, "POST", `/guilds/${demo.id}/leave`, { token: tok(performer) });
    await refusedUnsent(leave, 409, "NOT_MEMBER", /not a member/);
    ok(await join());
    await refusedUnsent(join, 409, "ALREADY_MEMBER", /already a member/);
    ok(await leave());
    await refusedUnsent(leave, 409, "NOT_MEMBER", /not a member/);
  });

  it("PATCH /missions/:id with the current details (content, not the salted hash)", async () => {
    const c = ok(await call(api.url, "POST", "/missions", {
      token: tok(poster), body: { ...details, rewardAmount: "3", expiresIn: 3600, location: { latitude: 48.8566, longitude: 2.3522, radius: 150 } },
    }), 201);
    const patch = (body: object) => call(api.url, "PATCH", `/missions/${c.data.id}`, { token: tok(poster), body });
    const same = /Nothing to update/;
    await refusedUnsent(() => patch({ title: details.title }), 409, "INVALID_STATE", same);
    // The same metadata with its keys in another order is the same content.
    await refusedUnsent(() => patch({ ...details, metadata: { a: { x: [1, 2], y: 2 }, b: 1 }, location: { latitude: 48.8566, longitude: 2.3522, radius: 150 } }), 409, "INVALID_STATE", same);
    // A real change is relayed, and then it is the current content.
    const before = await sent();
    const p = ok(await patch({ metadata: { b: 2, a: { y: 2, x: [1, 2] } } }));
    expect(p.data.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await sent()).outbox).toBe(before.outbox + 1);
    expect(ok(await call(api.url, "GET", `/missions/${c.data.id}`)).data.metadata).toEqual({ a: { x: [1, 2], y: 2 }, b: 2 });
    await refusedUnsent(() => patch({ metadata: { a: { y: 2, x: [1, 2] }, b: 2 } }), 409, "INVALID_STATE", same);
  });

  it("publishing a board entry that is already there with the same settings", async () => {
    const demo = (await call(api.url, "GET", "/guilds")).body.find((g: any) => g.name === "demo-guild");
    const gm = await chain.createMission(poster, usdc(2), { guildId: Number(demo.onChainId) });
    const S = `"${api.server.env.CHAIN_SCHEMA}"`;
    const missionId = (await api.server.deps.database.pool.query(`SELECT id FROM ${S}.missions WHERE on_chain_id = $1`, [gm.onChainId])).rows[0].id;
    const publish = (body: object) => call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token: tok(chain.guildAdmin), body });
    const entry = { missionId, notes: "Pick of the week", minGuildXP: 0, featured: true };
    ok(await publish(entry));
    await refusedUnsent(() => publish(entry), 409, "INVALID_STATE", /already on the board/);
    expect(ok(await publish({ ...entry, featured: false })).entry).toMatchObject({ featured: false });
  });

  it("uploading the side's current evidence again", async () => {
    const c = ok(await call(api.url, "POST", "/missions", { token: tok(poster), body: { ...details, rewardAmount: "4", expiresIn: 3600 } }), 201);
    ok(await call(api.url, "POST", `/missions/${c.data.id}/accept`, { token: tok(performer) }));
    ok(await call(api.url, "POST", `/missions/${c.data.id}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } }));
    const d = ok(await call(api.url, "POST", `/missions/${c.data.id}/dispute`, { token: tok(poster), body: { reason: "not done" } }));
    const upload = async (bytes: Uint8Array, who = poster, side = "poster") => {
      const form = new FormData();
      form.set("evidence", new Blob([bytes]), "e.txt");
      form.set("type", side);
      const r = await fetch(`${api.url}/resolver/disputes/${d.data.disputeId}/evidence`, { method: "POST", body: form, headers: { Authorization: `Bearer ${tok(who)}` } });
      return { status: r.status, body: await r.json() };
    };
    const first = new TextEncoder().encode("The fence is still brown.\n");
    ok(await upload(first));
    await refusedUnsent(() => upload(first), 409, "INVALID_STATE", /already is the poster's current evidence/);
    // The same bytes are new for the other side.
    ok(await upload(first, performer, "performer"));
    ok(await upload(new TextEncoder().encode("Photo attached later.\n")));
  });

  it("wallet set-up: a permit below the balance, and a set-up already done", async () => {
    const u = privateKeyToAccount(generatePrivateKey());
    const token = await signIn(api.url, u);
    ok(await call(api.url, "POST", "/faucet", { token })); // a balance of 1,000 tokens
    const steps = ok(await call(api.url, "GET", "/wallet/setup", { token })).steps;
    const sign = async (edit: (m: any) => void = () => {}) => {
      const out = [];
      for (const step of steps) {
        const td = structuredClone(step.typedData);
        edit(td.message);
        out.push({ id: step.id, message: td.message, signature: await u.signTypedData(td) });
      }
      return out;
    };
    const post = (signatures: unknown) => call(api.url, "POST", "/wallet/setup", { token, body: { signatures } });
    // Well signed, but an allowance of 999.999999 tokens never counts as done: it could be relayed forever.
    const short = await sign((m) => m.value !== undefined && (m.value = "999999999"));
    await refusedUnsent(() => post(short), 400, "VALIDATION_ERROR", /must cover the wallet's balance/);
    const full = await sign();
    expect(ok(await post(full)).ready).toBe(true);
    await refusedUnsent(() => post(full), 409, "INVALID_STATE", /already done/);
    await refusedUnsent(() => post([full[1]]), 409, "INVALID_STATE", /already done/);
    // Once done, a permit for any value changes nothing the status reports.
    const fresh = ok(await call(api.url, "GET", "/wallet/setup", { token })).steps;
    expect(fresh.every((s: any) => s.done)).toBe(true);
    await refusedUnsent(() => post(short.slice(1)), 409, "INVALID_STATE", /already done/);
  });
});
