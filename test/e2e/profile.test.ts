// Users, ratings, XP and NFTs over HTTP with real wallets: anvil + Postgres + deployment
// (global-setup), this file's own indexer, the API with its reactor runner (achievement mints).
// Missions are completed directly on-chain by fresh accounts (chain first), then used through the API.
import { createServer as createHttpServer, type Server } from "node:http";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import pg from "pg";
import { type Abi, type Address, decodeAbiParameters, keccak256, parseAbiParameters, toBytes, toHex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { achievementNftAbi, easAbi } from "../../abis/index.ts";
import { createServer, type ApiServer } from "../../api/app.ts";
import { startIndexer } from "../../script/lib/indexer.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { RATING_SCHEMA, chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let base = "";
let chain: ReturnType<typeof chainEnv>;
let db: pg.Pool;
let current: ApiServer | undefined;
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const lc = (a: string) => a.toLowerCase();

const expectError = (res: { status: number; body: any }, status: number, code: string, field?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (field) expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
};
async function until<T>(fn: () => Promise<T | undefined | null | false>, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function user(): Promise<PrivateKeyAccount> {
  const u = await chain.freshUser(usdc(1_000));
  tokens.set(u.address, await signIn(base, u));
  return u;
}
const achievementIds = async (who: Address) =>
  ((await call(base, "GET", `/nft/${who}/achievements`)).body as { attributes: { achievementId: string } }[]).map((n) => Number(n.attributes.achievementId)).sort((a, b) => a - b);

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({}, { indexer: true });
  base = api.url;
  current = api.server;
  chain.setIndexer(api.indexer);
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
});
afterAll(async () => {
  await db?.end();
  // The restart test replaces api.server: close whichever runs now, then the indexer.
  await current?.close();
  await api?.indexer?.stop();
});

describe("users", () => {
  it("every profile endpoint is in /openapi.json", async () => {
    const doc = (await call(base, "GET", "/openapi.json")).body;
    const want: [string, string][] = [
      ["/users/me", "get"], ["/users/me", "patch"], ["/users/me/link-solana", "post"], ["/users/me/link-solana/message", "get"],
      ["/users/{id}", "get"], ["/users/{id}/stats", "get"], ["/users/{id}/ratings", "get"], ["/ratings", "post"],
      ["/ratings/mission/{missionId}", "post"], ["/ratings/mission/{missionId}", "get"], ["/ratings/user/{userId}/stats", "get"],
      ["/ratings/{id}/verify", "get"], ["/xp/me", "get"], ["/xp/me/builder-score/refresh", "post"], ["/xp/leaderboard", "get"],
      ["/xp/leaderboard/builders", "get"], ["/xp/{userId}", "get"], ["/xp/{userId}/ledger", "get"], ["/nft/achievements", "get"],
      ["/nft/{userId}", "get"], ["/nft/{userId}/achievements", "get"], ["/nft/{userId}/collectibles", "get"],
    ];
    for (const [path, method] of want) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });

  it("GET /users/me, PATCH /users/me bounds, GET /users/:id by uuid or address", async () => {
    const u = await user();
    const me = await call(base, "GET", "/users/me", { token: tok(u) });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(Object.keys(me.body).sort()).toEqual(
      ["avatar", "bio", "createdAt", "displayName", "evmAddress", "globalXP", "id", "lastActiveAt", "reputation", "solanaAddress", "totalEarned", "totalSpent", "unlocks"],
    );
    expect(me.body).toMatchObject({ evmAddress: lc(u.address), globalXP: 0, reputation: 0, totalEarned: "0", totalSpent: "0", solanaAddress: null });
    expect(me.body.unlocks, "a new user is level 1").toEqual(["posting", "guild_joining"]);
    expectError(await call(base, "GET", "/users/me"), 401, "UNAUTHORIZED");

    const patch = (body: unknown) => call(base, "PATCH", "/users/me", { token: tok(u), body });
    expectError(await patch({ displayName: "   " }), 400, "VALIDATION_ERROR", "body.displayName");
    expectError(await patch({ displayName: "x".repeat(51) }), 400, "VALIDATION_ERROR", "body.displayName");
    expectError(await patch({ bio: "b".repeat(501) }), 400, "VALIDATION_ERROR", "body.bio");
    expectError(await patch({ avatar: "ftp://x.example/a.png" }), 400, "VALIDATION_ERROR", "body.avatar");
    expectError(await patch({ avatar: "javascript:alert(1)" }), 400, "VALIDATION_ERROR", "body.avatar");
    expectError(await patch({ premium: true }), 400, "VALIDATION_ERROR");
    expectError(await patch({}), 400, "VALIDATION_ERROR");
    // Nothing changed by the refused requests.
    expect((await call(base, "GET", "/users/me", { token: tok(u) })).body.displayName).toBe("");

    const ok = await patch({ displayName: "  Ada  ", bio: "b".repeat(500), avatar: "https://img.example/ada.png" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ id: me.body.id, displayName: "Ada", bio: "b".repeat(500), avatar: "https://img.example/ada.png" });
    const byId = await call(base, "GET", `/users/${me.body.id}`);
    const byAddr = await call(base, "GET", `/users/${u.address}`);
    expect(byId.body).toEqual(byAddr.body);
    expect(byId.body.displayName).toBe("Ada");
    expectError(await call(base, "GET", "/users/not-a-user"), 400, "VALIDATION_ERROR", "path.id");
    expectError(await call(base, "GET", "/users/00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND");
  });

  it("link-solana: a real ed25519 signature links; a bad one is 400 INVALID_SIGNATURE and changes nothing", async () => {
    const u = await user();
    const secret = ed25519.utils.randomSecretKey();
    const solanaAddress = base58.encode(ed25519.getPublicKey(secret));
    const msg = await call(base, "GET", `/users/me/link-solana/message?solanaAddress=${solanaAddress}`, { token: tok(u) });
    expect(msg.status, JSON.stringify(msg.body)).toBe(200);
    expect(msg.body.message).toContain(solanaAddress);
    expect(msg.body.message).toContain(lc(u.address));

    const wrongKey = base58.encode(ed25519.sign(new TextEncoder().encode(msg.body.message), ed25519.utils.randomSecretKey()));
    expectError(await call(base, "POST", "/users/me/link-solana", { token: tok(u), body: { solanaAddress, signature: wrongKey } }), 400, "INVALID_SIGNATURE");
    const otherMsg = base58.encode(ed25519.sign(new TextEncoder().encode("Link me"), secret));
    expectError(await call(base, "POST", "/users/me/link-solana", { token: tok(u), body: { solanaAddress, signature: otherMsg } }), 400, "INVALID_SIGNATURE");
    expectError(await call(base, "POST", "/users/me/link-solana", { token: tok(u), body: { solanaAddress: "0xnot-base58", signature: otherMsg } }), 400, "VALIDATION_ERROR", "body.solanaAddress");
    expect((await call(base, "GET", "/users/me", { token: tok(u) })).body.solanaAddress).toBeNull();

    const signature = base58.encode(ed25519.sign(new TextEncoder().encode(msg.body.message), secret));
    const ok = await call(base, "POST", "/users/me/link-solana", { token: tok(u), body: { solanaAddress, signature } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.solanaAddress).toBe(solanaAddress);
    // The same signature replayed by another EVM account does not verify (the message names the account).
    const v = await user();
    expectError(await call(base, "POST", "/users/me/link-solana", { token: tok(v), body: { solanaAddress, signature } }), 400, "INVALID_SIGNATURE");
  });
});

describe("ratings", () => {
  it("a party rates once after completion; EAS delegated attestation read back from the chain", async () => {
    const [poster, performer, stranger] = [await user(), await user(), await user()];
    const open = await chain.createMission(poster, usdc(20));
    await chain.acceptAndSubmit(performer, open);
    expectError(await call(base, "POST", `/ratings/mission/${open.onChainId}`, { token: tok(poster), body: { score: 5, comment: "x" } }), 409, "INVALID_STATE");

    const m = await chain.completeMission(poster, performer, usdc(20));
    const mission = (await call(base, "GET", `/missions/${m.onChainId}`)).body.data ?? null;
    const missionId: string = mission?.id ?? (await db.query(`SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE on_chain_id = $1`, [m.onChainId.toString()])).rows[0].id;
    const rate = (who: PrivateKeyAccount, body: unknown, id: string = missionId) => call(base, "POST", `/ratings/mission/${id}`, { token: tok(who), body });

    expectError(await rate(poster, { score: 0, comment: "x" }), 400, "VALIDATION_ERROR", "body.score");
    expectError(await rate(poster, { score: 4.5, comment: "x" }), 400, "VALIDATION_ERROR", "body.score");
    expectError(await rate(poster, { score: 5, comment: "c".repeat(1001) }), 400, "VALIDATION_ERROR", "body.comment");
    expectError(await rate(stranger, { score: 5, comment: "x" }), 403, "FORBIDDEN");
    expectError(await rate(poster, { score: 5, comment: "x" }, "00000000-0000-4000-8000-000000000000"), 404, "MISSION_NOT_FOUND");
    expectError(await call(base, "POST", `/ratings/mission/${missionId}`, { body: { score: 5, comment: "x" } }), 401, "UNAUTHORIZED");

    const comment = "Fast and careful, would hire again";
    const r1 = await rate(poster, { score: 5, comment });
    expect(r1.status, JSON.stringify(r1.body)).toBe(201);
    expect(Object.keys(r1.body).sort()).toEqual(
      ["comment", "createdAt", "easUid", "explorerUrl", "id", "isOnChain", "missionId", "onChainTxHash", "rateeId", "raterId", "score", "signature"],
    );
    expect(r1.body).toMatchObject({ missionId, score: 5, comment, isOnChain: true });
    expect(r1.body.easUid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r1.body.onChainTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r1.body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(r1.body.explorerUrl).toBe(`${base}/ratings/${r1.body.id}/verify`);
    expectError(await rate(poster, { score: 1, comment: "again" }), 409, "ALREADY_RATED");

    // POST /ratings { missionId } is the same operation (the performer rates the poster).
    const r2 = await call(base, "POST", "/ratings", { token: tok(performer), body: { missionId: m.onChainId.toString(), score: 4, comment: "Clear brief" } });
    expect(r2.status, JSON.stringify(r2.body)).toBe(201);
    expectError(await call(base, "POST", "/ratings", { token: tok(performer), body: { missionId, score: 4, comment: "dup" } }), 409, "ALREADY_RATED");

    // Read-your-writes: the lists already show both.
    const list = await call(base, "GET", `/ratings/mission/${missionId}`);
    expect(list.body).toHaveLength(2);
    const mine = list.body.find((x: any) => x.id === r1.body.id);
    expect(mine).toMatchObject({ score: 5, comment, easUid: r1.body.easUid, isOnChain: true, rater: { evmAddress: lc(poster.address) }, ratee: { evmAddress: lc(performer.address) } });
    expect(Object.keys(mine.rater).sort()).toEqual(["displayName", "evmAddress", "id"]);

    const stats = await call(base, "GET", `/ratings/user/${performer.address}/stats`);
    expect(stats.body).toEqual({
      userId: r1.body.rateeId, averageScore: 5, totalRatings: 1,
      ratingDistribution: { "5": 1, "4": 0, "3": 0, "2": 0, "1": 0 },
      asPerformer: { average: 5, count: 1 }, asPoster: { average: 0, count: 0 },
    });
    const posterStats = await call(base, "GET", `/ratings/user/${r2.body.rateeId}/stats`);
    expect(posterStats.body).toMatchObject({ averageScore: 4, totalRatings: 1, asPoster: { average: 4, count: 1 } });
    const profileRatings = await call(base, "GET", `/users/${performer.address}/ratings`);
    expect(profileRatings.body).toEqual([{ id: r1.body.id, missionId, rater: { id: r1.body.raterId, displayName: "" }, ratee: { id: r1.body.rateeId, displayName: "" }, score: 5, comment, createdAt: r1.body.createdAt }]);
    // Reputation per the spec table: 5 -> +5, 4 -> +2.
    expect((await call(base, "GET", `/users/${performer.address}`)).body.reputation).toBe(5);
    expect((await call(base, "GET", `/users/${poster.address}`)).body.reputation).toBe(2);
    const ustats = await call(base, "GET", `/users/${performer.address}/stats`);
    expect(ustats.body).toEqual({ missionsPosted: 0, missionsCompleted: 1, ratingCount: 1, averageRating: 5, disputesWon: 0, disputesLost: 0 });

    // /ratings/:id/verify reads EAS; the test reads it back from the chain itself too.
    const v = await call(base, "GET", `/ratings/${r1.body.id}/verify`);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body).toMatchObject({ id: r1.body.id, easUid: r1.body.easUid, isOnChain: true, verified: true, explorerUrl: r1.body.explorerUrl });
    expect(v.body.attestation).toMatchObject({ schemaId: chain.deployment.ratingSchemaUid, recipient: performer.address, revocable: false });
    expect(lc(v.body.attestation.attester)).toBe(lc(chain.deployment.relayer));
    const a = (await chain.client.readContract({ address: chain.c.EAS.address, abi: easAbi, functionName: "getAttestation", args: [r1.body.easUid] })) as any;
    expect(Number(a.time)).toBe(v.body.attestation.time);
    expect(a.revocable).toBe(false);
    const [mid, rater, ratee, score, onChainComment] = decodeAbiParameters(parseAbiParameters(RATING_SCHEMA), a.data);
    expect(BigInt(mid)).toBe(m.onChainId);
    expect([lc(rater), lc(ratee), score]).toEqual([lc(poster.address), lc(performer.address), 5]);
    expect(onChainComment).toBe(`keccak256:${keccak256(toBytes(comment)).slice(2)}`);
    // The personal text never went on-chain; the sponsor (relayer) paid, not the rater.
    const tx = await chain.client.getTransaction({ hash: r1.body.onChainTxHash });
    expect(tx.input.includes(toHex(comment).slice(2))).toBe(false);
    expect(lc(tx.from)).toBe(lc(chain.deployment.relayer));
    // By EAS uid as well; an unknown id is 404.
    expect((await call(base, "GET", `/ratings/${r1.body.easUid}/verify`)).body).toMatchObject({ verified: true, id: r1.body.id });
    expectError(await call(base, "GET", `/ratings/00000000-0000-4000-8000-000000000000/verify`), 404, "NOT_FOUND");
    expectError(await call(base, "GET", `/ratings/0x${"ab".repeat(32)}/verify`), 404, "NOT_FOUND");

    // Perfect Five (counted 5-star rating) and First Mission are minted by the reactor.
    const got = await until(async () => {
      const ids = await achievementIds(performer.address);
      return ids.includes(1) && ids.includes(8) ? ids : null;
    }, "First Mission + Perfect Five");
    expect(got).toEqual([1, 8]);
  });
});

describe("xp and nft", () => {
  it("summary, ledger, leaderboards, NFT shapes; fixed paths never match the :userId routes", async () => {
    const [poster, performer] = [await user(), await user()];
    await chain.completeMission(poster, performer, usdc(100));
    const m2 = await chain.completeMission(poster, performer, usdc(3));
    const me = (await call(base, "GET", "/users/me", { token: tok(performer) })).body;

    const xp = await call(base, "GET", `/xp/${me.id}`);
    expect(xp.status, JSON.stringify(xp.body)).toBe(200);
    // 34 + 25 (first mission) for 100 USDC, then 18 for 3 USDC (docs/indexer-notes.md).
    expect(xp.body).toEqual({
      userId: me.id, totalXP: 77, level: 2, levelTitle: "Explorer", xpToNextLevel: 98, progress: 2,
      builderScore: 0, builderLevel: "novice", xpMultiplier: 1,
    });
    expect((await call(base, "GET", `/xp/${performer.address}`)).body).toEqual(xp.body);
    const xpMe = await call(base, "GET", "/xp/me", { token: tok(performer) });
    expect(xpMe.body).toMatchObject({ ...xp.body, evmAddress: lc(performer.address), hasBuilderScore: false });
    expectError(await call(base, "GET", "/xp/me"), 401, "UNAUTHORIZED");

    const ledger = await call(base, "GET", `/xp/${me.id}/ledger`);
    expect(ledger.body.map((e: any) => [e.source, e.xpDelta, e.balanceAfter])).toEqual([
      ["mission_complete", 18, 77], ["first_mission", 25, 59], ["mission_complete", 34, 34],
    ]);
    expect(Object.keys(ledger.body[0]).sort()).toEqual(["balanceAfter", "createdAt", "id", "missionId", "reason", "source", "xpDelta"]);
    expect((await call(base, "GET", `/xp/${me.id}/ledger?limit=1`)).body).toHaveLength(1);
    expectError(await call(base, "GET", `/xp/${me.id}/ledger?limit=0`), 400, "VALIDATION_ERROR", "query.limit");
    expectError(await call(base, "GET", `/xp/${me.id}/ledger?limit=501`), 400, "VALIDATION_ERROR", "query.limit");

    const board = await call(base, "GET", "/xp/leaderboard?limit=500");
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    const xs = board.body.map((e: any) => e.xp);
    expect(xs).toEqual([...xs].sort((a: number, b: number) => b - a));
    expect(board.body.map((e: any) => e.rank)).toEqual(board.body.map((_: unknown, i: number) => i + 1));
    const entry = board.body.find((e: any) => e.user.evmAddress === lc(performer.address));
    expect(entry).toMatchObject({ user: { id: me.id, displayName: "", evmAddress: lc(performer.address) }, xp: 77, builderScore: 0 });
    expect((await call(base, "GET", "/xp/leaderboard?limit=2")).body).toHaveLength(2);
    expectError(await call(base, "GET", "/xp/leaderboard?type=weekly"), 400, "VALIDATION_ERROR", "query.type");
    for (const path of ["/xp/leaderboard/builders", "/xp/leaderboard?type=builders"]) {
      const b = await call(base, "GET", path);
      expect(b.status).toBe(200);
      expect(b.body.every((e: any) => typeof e.builderScore === "number")).toBe(true);
      expect(b.body.some((e: any) => e.user.evmAddress === lc(performer.address))).toBe(false);
    }

    const defs = await call(base, "GET", "/nft/achievements");
    expect(defs.status).toBe(200);
    expect(defs.body.map((d: any) => d.id)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "100"]);
    expect(defs.body[0]).toEqual({ id: "1", name: "First Mission", description: expect.any(String), image: expect.stringMatching(/^data:image\/svg\+xml;base64,/), requirements: expect.any(String), xpReward: expect.any(Number) });

    const nfts = await until(async () => {
      const r = await call(base, "GET", `/nft/${me.id}/achievements`);
      return r.body.length > 0 ? r.body : null;
    }, "First Mission NFT");
    expect(nfts).toHaveLength(1);
    const firstMissionOnChain = (await db.query(`SELECT id, completed_at::text FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE performer = $1 ORDER BY on_chain_id LIMIT 1`, [lc(performer.address)])).rows[0];
    expect(nfts[0]).toMatchObject({
      contractAddress: lc(chain.c.AchievementNFT.address), type: "Milestone", name: "First Mission", isSoulbound: true,
      attributes: { achievementId: "1", missionId: firstMissionOnChain.id, completedAt: new Date(Number(firstMissionOnChain.completed_at) * 1000).toISOString() },
    });
    expect(nfts[0].id).toBe(nfts[0].tokenId);
    expect(Object.keys(nfts[0]).sort()).toEqual(["attributes", "contractAddress", "description", "id", "image", "isSoulbound", "mintedAt", "name", "tokenId", "type"]);
    expect((await call(base, "GET", `/nft/${performer.address}`)).body).toEqual(nfts);
    expect((await call(base, "GET", `/nft/${performer.address}/collectibles`)).body).toEqual([]);
    // A tradable collectible (Pioneer, 100) minted by the relayer shows under collectibles only.
    await chain.nft("mint", [performer.address, 100n, 0n]);
    const col = await call(base, "GET", `/nft/${performer.address}/collectibles`);
    expect(col.body.map((n: any) => [n.attributes.achievementId, n.isSoulbound])).toEqual([["100", false]]);
    expect((await call(base, "GET", `/nft/${performer.address}`)).body).toHaveLength(2);
    expect((await call(base, "GET", `/nft/${performer.address}/achievements`)).body).toHaveLength(1);
    void m2;
  });

  it("builder score: an HTTP provider (a real local server) -> ReputationRegistry on-chain -> multiplier", async () => {
    const u = await user();
    const seen: string[] = [];
    const provider: Server = createHttpServer((req, res) => {
      seen.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ score: 100 }));
    });
    await new Promise<void>((r) => provider.listen(0, "127.0.0.1", () => r()));
    const port = (provider.address() as { port: number }).port;
    const other = await createServer({ env: { ...api.server.env, BUILDER_SCORE_URL: `http://127.0.0.1:${port}/score`, REACTORS_ENABLED: false } });
    const { url } = await other.listen(0);
    try {
      // Without a provider (the main API): nothing happens, nobody gets a bonus.
      const none = await call(base, "POST", "/xp/me/builder-score/refresh", { token: tok(u) });
      expect(none.body).toMatchObject({ provider: null, builderScore: null, transactionHash: null });
      const r = await call(url, "POST", "/xp/me/builder-score/refresh", { token: tok(u) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ builderScore: 100, cached: false, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(seen).toEqual([`/score/${lc(u.address)}`]);
      const xp = await call(url, "GET", "/xp/me", { token: tok(u) });
      expect(xp.body).toMatchObject({ builderScore: 100, builderLevel: "master", xpMultiplier: 1.5, hasBuilderScore: true });
      // At most once a day: the second call does not ask the provider again.
      const again = await call(url, "POST", "/xp/me/builder-score/refresh", { token: tok(u) });
      expect(again.body).toMatchObject({ builderScore: 100, cached: true });
      expect(seen).toHaveLength(1);
      const b = await call(base, "GET", "/xp/leaderboard/builders");
      expect(b.body.find((e: any) => e.user.evmAddress === lc(u.address))).toMatchObject({ builderScore: 100 });
      // The multiplier applies to XP earned afterwards: 50 USDC -> 30 base; x1.5 = 45, first mission 25 x1.5 = 38 (rounded).
      const poster = await user();
      await chain.completeMission(poster, u, usdc(50));
      expect((await call(base, "GET", `/xp/${u.address}`)).body.totalXP).toBe(45 + 38);
    } finally {
      await other.close();
      await new Promise<void>((r) => provider.close(() => r()));
    }
  });
});

describe("achievement reactor: exactly once across API and indexer restarts", () => {
  it("a stream of completions with the API (and once the indexer) stopped and restarted mid-way: none missing, none doubled", async () => {
    const poster = await user();
    const [p1, p2, p3] = [await user(), await user(), await user()];
    const completions: bigint[] = [];
    const complete = async (who: PrivateKeyAccount) => {
      const m = await chain.completeMission(poster, who, usdc(1));
      if (who === p1) completions.push(m.onChainId);
    };
    for (let i = 0; i < 4; i++) await complete(p1);
    // Stop the API (and its reactor runner) in the middle of the stream; completions go on on-chain.
    const env = api.server.env;
    await api.server.close();
    current = undefined;
    for (let i = 0; i < 4; i++) await complete(p1);
    await complete(p2);
    let restarted: ApiServer = await createServer({ env });
    current = restarted;
    base = (await restarted.listen(0)).url;
    await complete(p3);
    await complete(p1);
    // A second restart while mints may be in flight, this time with the indexer stopped and restarted
    // too (same schemas and port: Ponder resumes); completions go on while both are down.
    await restarted.close();
    current = undefined;
    const old = api.indexer!;
    await old.stop();
    chain.setIndexer(undefined);
    await complete(p1);
    api.indexer = await startIndexer({
      databaseUrl: inject("databaseUrl"), rpcUrl: inject("rpcUrl"), wsUrl: inject("wsUrl"), deploymentFile: inject("deploymentFile"),
      schema: env.CHAIN_SCHEMA.replace(/^chain_api_/, "ponder_api_"), viewsSchema: env.CHAIN_SCHEMA, port: old.port,
    });
    chain.setIndexer(api.indexer);
    restarted = await createServer({ env });
    current = restarted;
    base = (await restarted.listen(0)).url;
    api.server = restarted;
    for (let i = 0; i < 2; i++) await complete(p1);
    expect(completions).toHaveLength(12);

    const want: [PrivateKeyAccount, number[]][] = [[p1, [1, 7]], [p2, [1]], [p3, [1]]];
    for (const [who, ids] of want) {
      await until(async () => JSON.stringify(await achievementIds(who.address)) === JSON.stringify(ids), `achievements ${ids} of ${who.address}`, 90_000);
    }
    // On the chain: exactly one token per achievement; Ten Missions names the 10th completion.
    for (const [who, ids] of want) {
      const bal = (await chain.client.readContract({ address: chain.c.AchievementNFT.address, abi: achievementNftAbi as Abi, functionName: "balanceOf", args: [who.address] })) as bigint;
      expect(bal).toBe(BigInt(ids.length));
    }
    const ten = (await call(base, "GET", `/nft/${p1.address}/achievements`)).body.find((n: any) => n.attributes.achievementId === "7");
    const tenth = (await db.query(`SELECT id FROM "${env.CHAIN_SCHEMA}".missions WHERE on_chain_id = $1`, [completions[9]!.toString()])).rows[0].id;
    expect(ten.attributes.missionId).toBe(tenth);
    // One mint row each, all done, each keyed to a journal entry; no mint tx reverted.
    const rows = (await db.query(`SELECT account, achievement_id, status, cause, tx_hash FROM api.achievement_mints WHERE account = ANY($1) ORDER BY account, achievement_id`, [[p1, p2, p3].map((p) => lc(p.address))])).rows;
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect(["minted", "already_minted"]).toContain(r.status);
      expect(r.cause).toMatch(/^\d+$/);
      if (r.tx_hash) expect((await chain.client.getTransactionReceipt({ hash: r.tx_hash })).status).toBe("success");
    }
    // A settled state stays settled: a while later nothing more was minted.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await achievementIds(p1.address)).toEqual([1, 7]);
  });
});
