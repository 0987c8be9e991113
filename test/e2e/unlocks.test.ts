// Level unlocks through the public interface, with levels and reputation raised through the real
// sources (builder score, completed missions, EAS ratings): `unlocks` of GET /users/me, guild creation
// from level 6, a guild's reputation criterion at join, roles by the guild's admin (curators from
// level 11, GUILD_PROMOTED), and RESOLVER_ROLE granted on chain on reaching level 11.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Abi, Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import pg from "pg";
import { guildRegistryAbi, missionEscrowAbi } from "../../abis/index.ts";
import { disputeUuid } from "../../domain/index.ts";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { freshAuthorisedUser, raiseToLevel } from "./levels.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;
let views: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const expectError = (res: { status: number; body: any }, status: number, code: string, details?: { field: string }[]) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (details) expect(res.body.error.details).toEqual(details.map((d) => ({ ...d, reason: expect.any(String) })));
};
const LEVEL_1 = ["posting", "guild_joining"];
const LEVEL_6 = [...LEVEL_1, "premium_missions", "guild_creation"];
const LEVEL_11 = [...LEVEL_6, "curation", "resolving"];

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await sleep(50);
  }
}
const head = () => chain.client.getBlockNumber();
/** Waits until `reactor` has handled every journal entry up to the chain's head. */
const reacted = async (reactor: string) => {
  const block = await head();
  await until(`${reactor} at block ${block}`, () => reactorPassed(pool, views, reactor, block), Boolean, 60_000);
};
const isResolver = async (account: Address) => {
  const escrow = chain.c.MissionEscrow.address;
  const role = await chain.client.readContract({ address: escrow, abi: missionEscrowAbi as Abi, functionName: "RESOLVER_ROLE" });
  return chain.client.readContract({ address: escrow, abi: missionEscrowAbi as Abi, functionName: "hasRole", args: [role, account] }) as Promise<boolean>;
};
const onChainRoles = async (guildId: number, account: Address) =>
  Number(await chain.client.readContract({ address: chain.c.GuildRegistry.address, abi: guildRegistryAbi as Abi, functionName: "rolesOf", args: [guildId, account] }));
/** Every transaction the relayer signs is recorded here first. */
// The guild registry's writes only: the reactors send on their own (an achievement mint after a completed
// mission, a resolver grant), at any moment, and those are not what a refused guild route must not send.
const outbox = async () =>
  Number((await pool.query(`SELECT count(*) AS n FROM api.relayer_outbox WHERE fn IN ('createGuild', 'join', 'leave', 'setRoles')`)).rows[0].n);
const guildCount = async () => Number((await pool.query(`SELECT count(*) AS n FROM "${views}".guilds`)).rows[0].n);
const me = async (token: string) => {
  const r = await call(api.url, "GET", "/users/me", { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ REACTORS_POLL_MS: "50" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
  views = api.server.env.CHAIN_SCHEMA;
  // The grant reactor catches up on earlier files' level-ups with the key this file's helpers also
  // use (account 0): let it finish first, so the two never race for a nonce.
  await reacted("resolver-grants");
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await api?.stop();
});

describe("level unlocks", () => {
  let founder: PrivateKeyAccount;
  let founderToken: string;
  let member: PrivateKeyAccount;
  let memberToken: string;
  let guild: any;
  const operator = () => api.server.deps.operator as Address;
  const createGuild = (body: Record<string, unknown>, token = founderToken) => call(api.url, "POST", "/guilds", { token, body });
  const setRoles = (userId: string, body: Record<string, unknown>, token = founderToken) =>
    call(api.url, "POST", `/guilds/${guild.id}/members/${userId}/roles`, { token, body });
  const join = (token: string) => call(api.url, "POST", `/guilds/${guild.id}/join`, { token });
  const promotions = async (token: string) =>
    (await call(api.url, "GET", "/notifications?type=GUILD_PROMOTED", { token })).body.notifications.filter((n: any) => n.data.guildOnChainId === guild.onChainId);

  it("GET /users/me: a new user has the level-1 unlocks", async () => {
    founder = await freshAuthorisedUser(chain, operator());
    founderToken = await signIn(api.url, founder);
    expect((await me(founderToken)).unlocks).toEqual(LEVEL_1);
  });

  it("POST /guilds below level 6: 403 INELIGIBLE (level), nothing sent", async () => {
    await raiseToLevel(chain, pool, views, founder, 5);
    expect((await me(founderToken)).unlocks).toEqual(LEVEL_1);
    const before = await guildCount();
    const sent = await outbox();
    expectError(await createGuild({ name: `early-${Date.now()}`, category: "delivery", guildFeeBps: 100 }), 403, "INELIGIBLE", [{ field: "level" }]);
    expect(await guildCount()).toBe(before);
    expect(await outbox()).toBe(sent);
  }, 120_000);

  it("POST /guilds at level 6: 201, on chain with the caller as admin; validation and a taken name", async () => {
    await raiseToLevel(chain, pool, views, founder, 6);
    expect((await me(founderToken)).unlocks).toEqual(LEVEL_6);
    const name = `unlock-${Date.now().toString(36)}`;
    expectError(await createGuild({ name: "Bad Name", category: "delivery", guildFeeBps: 100 }), 400, "VALIDATION_ERROR", [{ field: "body.name" }]);
    expectError(await createGuild({ name, category: "delivery", guildFeeBps: 1001 }), 400, "VALIDATION_ERROR", [{ field: "body.guildFeeBps" }]);
    expectError(await createGuild({ name, category: "delivery", guildFeeBps: 100, minReputation: 1.5 }), 400, "VALIDATION_ERROR", [{ field: "body.minReputation" }]);
    expectError(await createGuild({ name: "demo-guild", category: "delivery", guildFeeBps: 100 }), 409, "GUILD_NAME_TAKEN");
    const res = await createGuild({ name, description: "couriers at night", category: "delivery", guildFeeBps: 250, minReputation: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    guild = res.body;
    expect(guild).toMatchObject({
      name, displayName: name, description: "couriers at night", category: "delivery", guildFeeBps: 250, memberCount: 1, minReputation: 5,
      creator: founder.address.toLowerCase(), treasury: founder.address.toLowerCase(),
      membership: { isAdmin: true, isCurator: true, isOfficer: true },
    });
    expect((await call(api.url, "GET", `/guilds/${guild.id}`, { token: founderToken })).body).toEqual(guild);
    expect(await onChainRoles(Number(guild.onChainId), founder.address)).toBe(7);
  }, 120_000);

  it("POST /guilds/:id/join below the guild's minReputation: 403 INELIGIBLE; at it: joined", async () => {
    member = await freshAuthorisedUser(chain, operator());
    memberToken = await signIn(api.url, member);
    const isMember = () =>
      chain.client.readContract({ address: chain.c.GuildRegistry.address, abi: guildRegistryAbi as Abi, functionName: "isMember", args: [Number(guild.onChainId), member.address] });
    const sent = await outbox();
    expectError(await join(memberToken), 403, "INELIGIBLE", [{ field: "minReputation" }]);
    expect(await outbox()).toBe(sent);
    expect(await isMember()).toBe(false);
    // Reputation through its real source: a counted 5-star rating (+5) by the poster of a completed mission.
    const poster = await chain.freshUser(usdc(100));
    const m = await chain.completeMission(poster, member, usdc(10));
    await chain.attestRating(poster, member.address, m.onChainId, 5);
    const rep = await pool.query(`SELECT reputation FROM "${views}".user_stats WHERE address = $1`, [member.address.toLowerCase()]);
    expect(rep.rows[0].reputation).toBe(5);
    const joined = await join(memberToken);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(await isMember()).toBe(true);
  }, 120_000);

  it("roles: admin only, not a member 409, curator below level 11 INELIGIBLE, officer promoted with GUILD_PROMOTED", async () => {
    const memberId = (await me(memberToken)).id;
    expectError(await setRoles(founder.address, { isOfficer: false }, memberToken), 403, "FORBIDDEN");
    expectError(await setRoles(chain.guildAdmin.address, { isOfficer: true }), 409, "NOT_MEMBER");
    expectError(await setRoles(memberId, {}), 400, "VALIDATION_ERROR");
    expectError(await setRoles("nobody", { isOfficer: true }), 400, "VALIDATION_ERROR", [{ field: "path.userId" }]);
    const sent = await outbox();
    expectError(await setRoles(memberId, { isCurator: true }), 403, "INELIGIBLE", [{ field: "level" }]);
    expect(await outbox()).toBe(sent);
    expectError(await setRoles(memberId, { isCurator: false }), 409, "INVALID_STATE");
    expect(await onChainRoles(Number(guild.onChainId), member.address)).toBe(0);
    const res = await setRoles(memberId, { isOfficer: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.member).toMatchObject({ isOfficer: true, isCurator: false, isAdmin: false, user: { id: memberId } });
    expect(await onChainRoles(Number(guild.onChainId), member.address)).toBe(2);
    const notes = await until("GUILD_PROMOTED (officer)", () => promotions(memberToken), (n) => n.length === 1);
    expect(notes[0].data).toMatchObject({ isOfficer: true, isCurator: false });
  }, 60_000);

  it("RESOLVER_ROLE on reaching level 11 (not at 10); then a curator and a resolver", async () => {
    await raiseToLevel(chain, pool, views, member, 10);
    await reacted("resolver-grants");
    expect(await isResolver(member.address)).toBe(false);
    expect((await me(memberToken)).unlocks).toEqual(LEVEL_6);

    await raiseToLevel(chain, pool, views, member, 11);
    await until("RESOLVER_ROLE granted", () => isResolver(member.address), Boolean);
    expect((await me(memberToken)).unlocks).toEqual(LEVEL_11);

    const res = await setRoles(member.address, { isCurator: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.member).toMatchObject({ isOfficer: true, isCurator: true });
    expect(await onChainRoles(Number(guild.onChainId), member.address)).toBe(3);
    const notes = await until("GUILD_PROMOTED (curator)", () => promotions(memberToken), (n) => n.length === 2);
    expect(notes[0].data).toMatchObject({ isCurator: true });

    // The granted role is enough to take a dispute through the API.
    const poster = await chain.freshUser(usdc(100));
    const performer = await chain.freshUser(usdc(10));
    const d = await chain.disputed(poster, performer, usdc(10), poster);
    const id = disputeUuid(chain.deployment.chainId, chain.c.MissionEscrow.address, d.disputeId);
    const take = await call(api.url, "POST", `/resolver/disputes/${id}/take`, { token: memberToken });
    expect(take.status, JSON.stringify(take.body)).toBe(200);
    expect(take.body).toMatchObject({ success: true });
  }, 180_000);
});
