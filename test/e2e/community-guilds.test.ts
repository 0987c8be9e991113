// Guild endpoints over HTTP: reads from the indexed views (list, filter, paging, by uuid and on-chain
// id, members, board) and writes relayed to GuildRegistry (join, leave, publish) checked on-chain.
import { operatorOf } from "../../domain/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Abi } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import pg from "pg";
import { guildRegistryAbi, operatorRegistryAbi } from "../../abis/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;
let S: string;

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const GUILD_KEYS = [
  "category", "contractAddress", "description", "displayName", "guildFeeBps", "guildReputation", "id", "memberCount", "name",
  "onChainId", "totalCompleted", "totalEarned",
];
const isMember = (guildId: number, account: string) =>
  chain.client.readContract({ address: chain.c.GuildRegistry.address, abi: guildRegistryAbi as Abi, functionName: "isMember", args: [guildId, account] });

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({}, { indexer: "shared" });
  chain.setIndexer(api.follows);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
  S = `"${api.server.env.CHAIN_SCHEMA}"`;
});
afterAll(async () => {
  await pool?.end();
  await api?.stop();
});

describe("guilds", () => {
  let demo: any;
  let user: PrivateKeyAccount;
  let token: string;

  it("GET /guilds: list, category filter (case-insensitive), skip/take, validation", async () => {
    const l = await call(api.url, "GET", "/guilds");
    expect(l.status, JSON.stringify(l.body)).toBe(200);
    demo = l.body.find((g: any) => g.name === "demo-guild");
    expect(demo, "the deployment creates demo-guild").toBeDefined();
    expect(Object.keys(demo).sort()).toEqual(GUILD_KEYS);
    expect(demo).toMatchObject({ displayName: "Demo Guild", category: "delivery", guildFeeBps: 500, totalEarned: expect.stringMatching(/^\d+$/) });
    expect(demo.id).toMatch(/^[0-9a-f-]{36}$/);
    const n = Number((await pool.query(`SELECT count(*) AS n FROM ${S}.guilds`)).rows[0].n);
    expect(l.body.length).toBe(Math.min(n, 20));
    expect((await call(api.url, "GET", "/guilds?category=DELIVERY")).body.map((g: any) => g.id)).toContain(demo.id);
    expect((await call(api.url, "GET", "/guilds?category=no-such-category")).body).toEqual([]);
    expect((await call(api.url, "GET", "/guilds?take=1")).body.length).toBe(1);
    expect((await call(api.url, "GET", `/guilds?skip=${n}`)).body).toEqual([]);
    const bad = await call(api.url, "GET", "/guilds?take=0");
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details[0].field).toBe("query.take");
    expectError(await call(api.url, "GET", "/guilds?skip=-1"), 400, "VALIDATION_ERROR");
  });

  it("GET /guilds/:id by uuid and on-chain id; members; 404", async () => {
    const a = await call(api.url, "GET", `/guilds/${demo.id}`);
    const b = await call(api.url, "GET", `/guilds/${demo.onChainId}`);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toMatchObject({ ...demo, membership: null, treasury: expect.stringMatching(/^0x/), creator: expect.stringMatching(/^0x/) });
    expect(new Date(a.body.createdAt).toISOString()).toBe(a.body.createdAt);
    expectError(await call(api.url, "GET", "/guilds/00000000-0000-8000-8000-000000000000"), 404, "GUILD_NOT_FOUND");
    expectError(await call(api.url, "GET", "/guilds/999999"), 404, "GUILD_NOT_FOUND");
    expectError(await call(api.url, "GET", "/guilds/999999/members"), 404, "GUILD_NOT_FOUND");
    expectError(await call(api.url, "GET", "/guilds/999999/board"), 404, "GUILD_NOT_FOUND");
    const m = await call(api.url, "GET", `/guilds/${demo.id}/members`);
    expect(m.status).toBe(200);
    const admin = m.body.find((x: any) => x.user.evmAddress === chain.guildAdmin.address.toLowerCase());
    expect(admin).toMatchObject({ isAdmin: true, isCurator: true });
    expect(Object.keys(admin).sort()).toEqual(["guildXP", "id", "isAdmin", "isCurator", "isOfficer", "joinedAt", "user"]);
    expect(m.body.length).toBe(demo.memberCount);
  });

  it("join is relayed on-chain; indexed member row; 409 ALREADY_MEMBER; 401; 404", async () => {
    user = await chain.freshUser();
    await chain.send(user, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
    token = await signIn(api.url, user);
    expect(await isMember(Number(demo.onChainId), user.address)).toBe(false);
    const j = await call(api.url, "POST", `/guilds/${demo.id}/join`, { token });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    expect(j.body).toMatchObject({ success: true, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(j.body.guild.memberCount).toBe(demo.memberCount + 1);
    expect(j.body.membership).toMatchObject({ isCurator: false, isAdmin: false, guildXP: 0, user: { evmAddress: user.address.toLowerCase() } });
    expect(await isMember(Number(demo.onChainId), user.address)).toBe(true);
    const row = await pool.query(`SELECT active FROM ${S}.guild_members WHERE guild_on_chain_id = $1 AND lower(account) = $2`, [Number(demo.onChainId), user.address.toLowerCase()]);
    expect(row.rows).toEqual([{ active: true }]);
    const receipt = await chain.client.getTransactionReceipt({ hash: j.body.transactionHash });
    expect(receipt.status).toBe("success");
    const g = await call(api.url, "GET", `/guilds/${demo.onChainId}`, { token });
    expect(g.body.membership).toMatchObject({ user: { evmAddress: user.address.toLowerCase() } });
    expect((await call(api.url, "GET", `/guilds/${demo.id}/members`)).body.map((m: any) => m.user.evmAddress)).toContain(user.address.toLowerCase());
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/join`, { token }), 409, "ALREADY_MEMBER");
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/join`), 401, "UNAUTHORIZED");
    expectError(await call(api.url, "POST", "/guilds/999999/join", { token }), 404, "GUILD_NOT_FOUND");
  });

  it("publish: curator of demo-guild works, non-curator 403, mission of another guild 400", async () => {
    const gm = await chain.createMission(user, usdc(4), { guildId: Number(demo.onChainId) });
    const plain = await chain.createMission(user, usdc(1));
    const missionId = (await pool.query(`SELECT id FROM ${S}.missions WHERE on_chain_id = $1`, [gm.onChainId])).rows[0].id;
    const plainId = (await pool.query(`SELECT id FROM ${S}.missions WHERE on_chain_id = $1`, [plain.onChainId])).rows[0].id;
    const body = { missionId, notes: "Hot pick", minGuildXP: 0, featured: true };
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token, body }), 403, "FORBIDDEN");
    const curatorToken = await signIn(api.url, chain.guildAdmin);
    const badMission = await call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token: curatorToken, body: { ...body, missionId: plainId } });
    expectError(badMission, 400, "VALIDATION_ERROR");
    expect(badMission.body.error.details[0].field).toBe("body.missionId");
    const badXp = await call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token: curatorToken, body: { ...body, minGuildXP: -1 } });
    expectError(badXp, 400, "VALIDATION_ERROR");
    expect(badXp.body.error.details[0].field).toBe("body.minGuildXP");
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token: curatorToken, body: { ...body, featured: "yes" } }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "POST", "/guilds/999999/board/publish", { token: curatorToken, body }), 404, "GUILD_NOT_FOUND");
    // Nothing published by bad input (other test files share the chain and may have board entries).
    const boardBefore = (await call(api.url, "GET", `/guilds/${demo.id}/board`)).body as any[];
    expect(boardBefore.map((e) => e.missionId)).not.toContain(missionId);
    expect(boardBefore.map((e) => e.missionId)).not.toContain(plainId);
    const p = await call(api.url, "POST", `/guilds/${demo.id}/board/publish`, { token: curatorToken, body });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body).toMatchObject({ success: true, transactionHash: expect.stringMatching(/^0x/) });
    expect(p.body.entry).toMatchObject({ missionId, notes: "Hot pick", featured: true, minGuildXP: 0 });
    const onBoard = await chain.client.readContract({
      address: chain.c.GuildRegistry.address, abi: guildRegistryAbi as Abi, functionName: "isOnBoard", args: [Number(demo.onChainId), gm.onChainId],
    });
    expect(onBoard).toBe(true);
    const board = await call(api.url, "GET", `/guilds/${demo.id}/board`);
    expect(board.status).toBe(200);
    const entry = board.body.find((e: any) => e.missionId === missionId);
    expect(entry).toMatchObject({ notes: "Hot pick", featured: true, mission: { id: missionId, onChainId: String(gm.onChainId) } });
    expect(Object.keys(entry).sort()).toEqual(["createdAt", "curatorId", "featured", "id", "minGuildXP", "mission", "missionId", "notes"]);
  });

  it("leave is relayed on-chain; 409 NOT_MEMBER after", async () => {
    const l = await call(api.url, "POST", `/guilds/${demo.id}/leave`, { token });
    expect(l.status, JSON.stringify(l.body)).toBe(200);
    expect(l.body).toMatchObject({ success: true, membership: null });
    expect(l.body.guild.memberCount).toBe(demo.memberCount);
    expect(await isMember(Number(demo.onChainId), user.address)).toBe(false);
    const row = await pool.query(`SELECT active FROM ${S}.guild_members WHERE guild_on_chain_id = $1 AND lower(account) = $2`, [Number(demo.onChainId), user.address.toLowerCase()]);
    expect(row.rows).toEqual([{ active: false }]);
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/leave`, { token }), 409, "NOT_MEMBER");
    expect((await call(api.url, "GET", `/guilds/${demo.id}`, { token })).body.membership).toBeNull();
    expectError(await call(api.url, "POST", "/guilds/999999/leave", { token }), 404, "GUILD_NOT_FOUND");
    // The only admin (anvil account 1) cannot leave: refused before any transaction.
    const admins = (await call(api.url, "GET", `/guilds/${demo.id}/members`)).body.filter((m: any) => m.isAdmin);
    expect(admins.length).toBe(1);
    const curatorToken = await signIn(api.url, chain.guildAdmin);
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/leave`, { token: curatorToken }), 409, "INVALID_STATE");
    expect(await isMember(Number(demo.onChainId), chain.guildAdmin.address)).toBe(true);
  });

  it("invite: officers and admins notify the invitee (GUILD_INVITE) once; others 403; members 409", async () => {
    const invitee = await chain.freshUser();
    const adminToken = await signIn(api.url, chain.guildAdmin);
    const body = { address: invitee.address };
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/invite`, { token, body }), 403, "FORBIDDEN"); // a plain (ex-)member
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/invite`, { body }), 401, "UNAUTHORIZED");
    const bad = await call(api.url, "POST", `/guilds/${demo.id}/invite`, { token: adminToken, body: { address: "0x123" } });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details[0].field).toBe("body.address");
    expectError(await call(api.url, "POST", `/guilds/${demo.id}/invite`, { token: adminToken, body: { address: chain.guildAdmin.address } }), 409, "ALREADY_MEMBER");
    const first = await call(api.url, "POST", `/guilds/${demo.id}/invite`, { token: adminToken, body });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ success: true, invited: invitee.address.toLowerCase(), notified: true });
    const again = await call(api.url, "POST", `/guilds/${demo.id}/invite`, { token: adminToken, body });
    expect(again.body).toEqual({ success: true, invited: invitee.address.toLowerCase(), notified: false });
    const inviteeToken = await signIn(api.url, invitee);
    const n = await call(api.url, "GET", "/notifications?type=GUILD_INVITE", { token: inviteeToken });
    expect(n.body.total).toBe(1);
    expect(n.body.notifications[0]).toMatchObject({ type: "GUILD_INVITE", read: false, data: { guildId: demo.id, guildName: "demo-guild" } });
  });

  it("guild endpoints are in /openapi.json", async () => {
    const doc = (await call(api.url, "GET", "/openapi.json")).body;
    for (const p of ["/guilds", "/guilds/{id}", "/guilds/{id}/members", "/guilds/{id}/board", "/guilds/{id}/join", "/guilds/{id}/leave", "/guilds/{id}/board/publish", "/guilds/{id}/invite"]) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });
});
