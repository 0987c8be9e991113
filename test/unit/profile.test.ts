// Pure parts of the profile area: Solana link signatures (real ed25519 keys), what a journal entry
// earns, rating stats, XP summaries; the HTTP builder-score provider against a real local server.
import { createServer, type Server } from "node:http";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACHIEVEMENT, earnedBy as earnedByEvent } from "../../api/reactors/achievements.ts";
import type { JournalType } from "../../domain/index.ts";
import { httpBuilderScoreProvider } from "../../api/services/profile/builder-score.ts";
import { commentHash } from "../../api/services/profile/ratings.service.ts";
import { decodeSignature, solanaLinkMessage, verifySolanaLink } from "../../api/services/profile/solana.ts";
import { ratingStatsView, xpSummaryView } from "../../api/services/profile/views.ts";
import type { UserStatsRow } from "../../api/repositories/profile.repository.ts";

const evm = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("solana link", () => {
  const secret = ed25519.utils.randomSecretKey();
  const solanaAddress = base58.encode(ed25519.getPublicKey(secret));
  const sign = (msg: string, key = secret) => ed25519.sign(new TextEncoder().encode(msg), key);

  it("accepts a real signature of the link message (base58, hex, base64)", () => {
    const sig = sign(solanaLinkMessage(solanaAddress, evm, 31337));
    for (const signature of [base58.encode(sig), `0x${Buffer.from(sig).toString("hex")}`, Buffer.from(sig).toString("base64")]) {
      expect(verifySolanaLink({ solanaAddress, signature, evmAddress: evm, chainId: 31337 })).toBe(true);
    }
  });
  it("rejects another message, another EVM address, another chain, another key, garbage", () => {
    const good = solanaLinkMessage(solanaAddress, evm, 31337);
    const ok = (signature: string, over: Partial<{ evmAddress: string; chainId: number }> = {}) =>
      verifySolanaLink({ solanaAddress, signature, evmAddress: evm, chainId: 31337, ...over });
    expect(ok(base58.encode(sign(good + " ")))).toBe(false);
    expect(ok(base58.encode(sign(good)), { evmAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" })).toBe(false);
    expect(ok(base58.encode(sign(good)), { chainId: 1 })).toBe(false);
    expect(ok(base58.encode(sign(good, ed25519.utils.randomSecretKey())))).toBe(false);
    expect(ok("not-a-signature")).toBe(false);
    expect(decodeSignature("abc")).toBeNull();
  });
  it("the message binds both addresses (EVM lowercase) and the chain", () => {
    expect(solanaLinkMessage("Sol1", evm, 84532)).toBe(`Link Solana address Sol1 to ${evm.toLowerCase()} on mission-marketplace (chain 84532)`);
  });
});

// Partial payloads on purpose: the rules must hold up when a field is missing.
type PartialEvent = { type: JournalType; account: string | null; payload: Record<string, unknown> };
const earnedBy = (e: PartialEvent, ctx?: Parameters<typeof earnedByEvent>[1]) => earnedByEvent(e as Parameters<typeof earnedByEvent>[0], ctx);

describe("achievements earned by a journal entry", () => {
  const p = "0x00000000000000000000000000000000000000aa";
  it("MISSION_COMPLETED: First Mission always (deduplicated later), Ten Missions from the 10th", () => {
    const e: PartialEvent = { type: "MISSION_COMPLETED", account: p, payload: { performer: p, onChainId: "7" } };
    expect(earnedBy(e, { completions: 1 }).map((x) => x.achievementId)).toEqual([ACHIEVEMENT.FIRST_MISSION]);
    expect(earnedBy(e, { completions: 9 }).map((x) => x.achievementId)).toEqual([ACHIEVEMENT.FIRST_MISSION]);
    expect(earnedBy(e, { completions: 10 })).toEqual([
      { account: p, achievementId: 1, missionOnChainId: "7" },
      { account: p, achievementId: 7, missionOnChainId: "7" },
    ]);
  });
  it("LEVEL_UP crossing milestones 6, 11, 16, 21, 25 (several at once when a jump skips some)", () => {
    const up = (previousLevel: number, level: number) =>
      earnedBy({ type: "LEVEL_UP", account: p, payload: { user: p, previousLevel, level } }).map((x) => x.achievementId);
    expect(up(5, 6)).toEqual([2]);
    expect(up(4, 5)).toEqual([]);
    expect(up(6, 7)).toEqual([]);
    expect(up(10, 16)).toEqual([3, 4]);
    expect(up(24, 25)).toEqual([6]);
    expect(up(1, 25)).toEqual([2, 3, 4, 5, 6]);
  });
  it("Perfect Five only for a counted 5; Guild Founder; Peacemaker only with a paid resolver", () => {
    const rating = (score: number, counted: boolean) =>
      earnedBy({ type: "RATING_ATTESTED", account: p, payload: { ratee: p, score, counted, missionId: `0x${"0".repeat(62)}0b` } });
    expect(rating(5, true)).toEqual([{ account: p, achievementId: 8, missionOnChainId: "11" }]);
    expect(rating(5, false)).toEqual([]);
    expect(rating(4, true)).toEqual([]);
    expect(earnedBy({ type: "GUILD_CREATED", account: p, payload: {} })[0]?.achievementId).toBe(9);
    const fin = (resolver: string, resolverAmount: string) =>
      earnedBy({ type: "DISPUTE_FINALIZED", account: null, payload: { payout: { resolver, resolverAmount } } }, { missionOnChainId: "3" });
    expect(fin(p, "50000")).toEqual([{ account: p, achievementId: 10, missionOnChainId: "3" }]);
    expect(fin(p, "0")).toEqual([]);
    expect(fin("0x0000000000000000000000000000000000000000", "5")).toEqual([]);
    expect(earnedBy({ type: "MISSION_CREATED", account: p, payload: {} })).toEqual([]);
  });
});

describe("views", () => {
  it("rating stats: distribution keys 5..1, sides by the rater's role, two-decimal averages", () => {
    const v = ratingStatsView("u", [
      { score: 5, raterRole: "poster", n: 2, sum: 10 },
      { score: 4, raterRole: "performer", n: 1, sum: 4 },
      { score: 1, raterRole: "poster", n: 1, sum: 1 },
    ]);
    expect(v).toEqual({
      userId: "u", averageScore: 3.75, totalRatings: 4,
      ratingDistribution: { "5": 2, "4": 1, "3": 0, "2": 0, "1": 1 },
      asPerformer: { average: 3.67, count: 3 }, asPoster: { average: 4, count: 1 },
    });
    expect(ratingStatsView("u", []).averageScore).toBe(0);
  });
  it("XP summary from the indexer's figures (levels.ts / xp.ts)", () => {
    const row = (totalXP: number, builderScore: number | null) => ({ totalXP, builderScore }) as UserStatsRow;
    expect(xpSummaryView("u", row(625, 100))).toEqual({
      userId: "u", totalXP: 625, level: 6, levelTitle: "Apprentice", xpToNextLevel: 250, progress: 0,
      builderScore: 100, builderLevel: "master", xpMultiplier: 1.5,
    });
    expect(xpSummaryView("u", null)).toMatchObject({ totalXP: 0, level: 1, builderScore: 0, builderLevel: "novice", xpMultiplier: 1 });
    expect(xpSummaryView("u", row(30, 60))).toMatchObject({ level: 1, xpToNextLevel: 45, progress: 40, builderLevel: "practitioner", xpMultiplier: 1.1 });
  });
  it("comment hash is keccak256 of the UTF-8 text", () => {
    expect(commentHash("")).toBe("keccak256:c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });
});

describe("HTTP builder-score provider (a real local server)", () => {
  let server: Server;
  let base = "";
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? "");
      const addr = (req.url ?? "").split("/").pop()!;
      const reply = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
      };
      if (addr.endsWith("01")) return reply(200, JSON.stringify({ score: 87.9 }));
      if (addr.endsWith("02")) return reply(200, JSON.stringify({ score: 250 }));
      if (addr.endsWith("03")) return reply(404, "{}");
      if (addr.endsWith("04")) return reply(200, JSON.stringify({ nope: 1 }));
      return reply(500, "boom");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const a = server.address();
    base = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/scores/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("GET <url>/<address> -> score, floored and clamped to 0..100; 404 -> none; bad answers -> 503", async () => {
    const p = httpBuilderScoreProvider(base);
    const a = (n: string) => `0x${"0".repeat(38)}${n}`;
    expect(await p.fetchScore(a("01"))).toBe(87);
    expect(seen.at(-1)).toBe(`/scores/${a("01")}`);
    expect(await p.fetchScore(a("02"))).toBe(100);
    expect(await p.fetchScore(a("03"))).toBeNull();
    await expect(p.fetchScore(a("04"))).rejects.toMatchObject({ code: "BUILDER_SCORE_UNAVAILABLE" });
    await expect(p.fetchScore(a("05"))).rejects.toMatchObject({ code: "BUILDER_SCORE_UNAVAILABLE", status: 503 });
    await expect(httpBuilderScoreProvider("http://127.0.0.1:9").fetchScore(a("01"))).rejects.toMatchObject({ code: "BUILDER_SCORE_UNAVAILABLE" });
  });
});
