// The indexer end to end: real anvil + Postgres + deployment (global setup) + real Ponder.
import type { Abi } from "viem";
import { keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { achievementNftAbi, missionEscrowAbi } from "../../abis/index.ts";
import { disputeUuid, missionUuid } from "../../domain/index.ts";
import { type IndexerHandle, indexedBlock } from "../../script/lib/indexer.ts";
import { chainEnv, indexerSchemas, launchIndexer, usdc, viewsDb } from "./indexer-helpers.ts";

const env = chainEnv();
const { c, escrow } = env;
const schemas = indexerSchemas("e2e");
const { pool, q } = viewsDb(schemas.viewsSchema);
let indexer: IndexerHandle;
const lower = (a: string) => a.toLowerCase();
const mid = (onChainId: bigint) => missionUuid(env.deployment.chainId, c.MissionEscrow.address, onChainId);
const ledger = (user: string) =>
  q(
    `SELECT source, xp_delta, balance_after, mission_id, multiplier_bps FROM $v.xp_ledger WHERE "user" = $1 ORDER BY key`,
    [lower(user)],
  );
const stats = async (user: string) => (await q(`SELECT * FROM $v.user_stats WHERE address = $1`, [lower(user)]))[0];
const mission = async (onChainId: bigint) => (await q(`SELECT * FROM $v.missions WHERE id = $1`, [mid(onChainId)]))[0];

// A journal reader with a cursor, polling while the tests run (and across the restart at the end).
const seen: string[] = [];
let cursor = "0";
let reading = true;
const reader = (async () => {
  while (reading) {
    const rows = await q<{ id: string }>(`SELECT id FROM $v.journal WHERE id > $1 ORDER BY id LIMIT 500`, [
      cursor,
    ]).catch(() => []);
    for (const r of rows) seen.push(r.id);
    if (rows.length) cursor = rows[rows.length - 1]!.id;
    await new Promise((r) => setTimeout(r, 20));
  }
})();

beforeAll(async () => {
  indexer = await launchIndexer(schemas);
  env.setIndexer(indexer);
});

afterAll(async () => {
  reading = false;
  await reader;
  await indexer?.stop();
  await pool.end();
});

describe("missions", () => {
  let poster: Awaited<ReturnType<typeof env.freshUser>>;
  let performer: Awaited<ReturnType<typeof env.freshUser>>;
  let completed: Awaited<ReturnType<typeof env.completeMission>>;

  it("a mission created directly on-chain appears with every chain field", async () => {
    poster = await env.freshUser();
    const reward = usdc(100);
    const m = await env.createMission(poster, reward);
    const block = await env.client.getBlock({ blockNumber: m.receipt.blockNumber });
    expect(await mission(m.onChainId)).toMatchObject({
      id: mid(m.onChainId),
      chain_id: 31337,
      on_chain_id: m.onChainId.toString(),
      escrow_address: lower(c.MissionEscrow.address),
      poster: lower(poster.address),
      performer: null,
      guild_on_chain_id: 0,
      guild_uuid: null,
      reward: reward.toString(),
      ddr_amount: usdc(5).toString(),
      guild_fee_bps: 0,
      state: "Open",
      details_hash: m.detailsHash,
      proof_hash: null,
      expires_at: m.expiresAt.toString(),
      created_at: block.timestamp.toString(),
      created_tx_hash: m.receipt.transactionHash,
      created_block: m.receipt.blockNumber.toString(),
    });
    expect((await stats(poster.address))!.missions_posted).toBe(1);
    const reserve = await env.client.readContract({
      address: c.MissionEscrow.address,
      abi: missionEscrowAbi as Abi,
      functionName: "reserveFor",
      args: [reward],
    });
    expect(reserve).toBe(usdc(5)); // the indexer's pure reserveFor agrees with the escrow
  });

  it("accept, submit and approve: the settlement, stats, XP ledger and journal", async () => {
    performer = await env.freshUser();
    completed = await env.completeMission(poster, performer, usdc(100));
    const m = await mission(completed.onChainId);
    const at = async (r: { blockNumber: bigint }) =>
      (await env.client.getBlock({ blockNumber: r.blockNumber })).timestamp.toString();
    expect(m).toMatchObject({
      state: "Completed",
      performer: lower(performer.address),
      proof_hash: completed.proofHash,
      accepted_at: await at(completed.accepted),
      submitted_at: await at(completed.submitted),
      completed_at: await at(completed.approved),
      accepted_tx_hash: completed.accepted.transactionHash,
      submitted_tx_hash: completed.submitted.transactionHash,
      completed_tx_hash: completed.approved.transactionHash,
    });
    expect(BigInt(m!.review_deadline)).toBe(BigInt(m!.submitted_at) + 7n * 86_400n);
    const preview = (await env.client.readContract({
      address: c.MissionEscrow.address,
      abi: missionEscrowAbi as Abi,
      functionName: "previewSettlement",
      args: [usdc(100), 0],
    })) as Record<string, bigint>;
    const [s] = await q(`SELECT * FROM $v.settlements WHERE mission_id = $1`, [m!.id]);
    expect(s).toMatchObject({
      performer_amount: "96500000",
      protocol_amount: "2000000", // the treasury's part of the 2.5 % protocol share
      guild_amount: "0",
      labs_amount: "1000000",
      resolver_amount: "500000", // the rest (20 %) into the resolver pool
      by_claim: false,
    });
    expect(BigInt(s!.performer_amount)).toBe(preview.performerAmount);
    expect(await stats(performer.address)).toMatchObject({
      missions_completed: 1,
      total_earned: "96500000",
      total_xp: 59,
      level: 1,
      streak_count: 1,
    });
    expect((await stats(poster.address))!.total_spent).toBe("100000000");
    expect(await ledger(performer.address)).toEqual([
      { source: "mission_complete", xp_delta: 34, balance_after: 34, mission_id: m!.id, multiplier_bps: 10000 },
      { source: "first_mission", xp_delta: 25, balance_after: 59, mission_id: m!.id, multiplier_bps: 10000 },
    ]);
    const types = (await q(`SELECT type FROM $v.journal WHERE mission_id = $1 ORDER BY id`, [m!.id])).map(
      (r) => r.type,
    );
    expect(types).toEqual([
      "MISSION_CREATED",
      "MISSION_ACCEPTED",
      "MISSION_SUBMITTED",
      "MISSION_COMPLETED",
      "XP_AWARDED",
      "XP_AWARDED",
    ]);
  });

  it("a second completion levels the performer up (LEVEL_UP in the journal)", async () => {
    await env.completeMission(poster, performer, usdc(100));
    expect(await stats(performer.address)).toMatchObject({
      total_xp: 93,
      level: 2,
      streak_count: 2,
      missions_completed: 2,
    });
    const [up] = await q(`SELECT payload FROM $v.journal WHERE type = 'LEVEL_UP' AND account = $1`, [
      lower(performer.address),
    ]);
    expect(up!.payload).toMatchObject({ previousLevel: 1, level: 2, levelTitle: "Explorer", totalXP: 93 });
  });

  it("cancel: Cancelled with the refund", async () => {
    const m = await env.createMission(poster, usdc(20));
    const r = await escrow(poster, "cancelMission", [m.onChainId]);
    expect(await mission(m.onChainId)).toMatchObject({
      state: "Cancelled",
      refund_amount: "20000000",
      cancelled_tx_hash: r.transactionHash,
    });
  });

  it("expiry: an Open mission, and an Accepted one whose performer breaks their streak", async () => {
    const open = await env.createMission(poster, usdc(20), { expiresIn: 120 });
    const taken = await env.createMission(poster, usdc(20), { expiresIn: 120 });
    await escrow(performer, "acceptMission", [taken.onChainId, performer.address, taken.detailsHash]);
    await env.timeTravel(200);
    const r1 = await escrow(poster, "expireMission", [open.onChainId]);
    await escrow(poster, "expireMission", [taken.onChainId]);
    expect(await mission(open.onChainId)).toMatchObject({
      state: "Expired",
      refund_amount: "20000000",
      expired_tx_hash: r1.transactionHash,
    });
    expect(await mission(taken.onChainId)).toMatchObject({ state: "Expired", performer: lower(performer.address) });
    expect((await stats(performer.address))!.streak_count).toBe(0);
  });

  it("review window: anyone claims after it lapses (byClaim)", async () => {
    const other = await env.freshUser();
    const m = await env.createMission(poster, usdc(10), { expiresIn: 30 * 86_400 });
    await env.acceptAndSubmit(other, m);
    await env.timeTravel(7 * 86_400 + 1);
    await escrow(other, "claimAfterReview", [m.onChainId]);
    expect((await mission(m.onChainId))!.state).toBe("Completed");
    expect(
      (await q(`SELECT by_claim FROM $v.settlements WHERE mission_id = $1`, [mid(m.onChainId)]))[0]!.by_claim,
    ).toBe(true);
  });

  it("an EAS rating (eas.attest) counts once: reputation, stats and perfect_rating XP", async () => {
    const { uid, receipt } = await env.attestRating(poster, performer.address, completed.onChainId, 5);
    const [r] = await q(`SELECT * FROM $v.ratings WHERE uid = $1`, [uid]);
    expect(r).toMatchObject({
      mission_id: mid(completed.onChainId),
      mission_on_chain_id: completed.onChainId.toString(),
      rater: lower(poster.address),
      ratee: lower(performer.address),
      score: 5,
      comment: "great",
      attester: lower(poster.address),
      revocable: false,
      counted: true,
      rater_role: "poster",
      reputation_delta: 5,
      tx_hash: receipt.transactionHash,
    });
    expect(await stats(performer.address)).toMatchObject({ rating_count: 1, rating_sum: 5, reputation: 5 });
    expect((await ledger(performer.address)).at(-1)).toMatchObject({ source: "perfect_rating", xp_delta: 10 });
    const dup = await env.attestRating(poster, performer.address, completed.onChainId, 1);
    expect((await q(`SELECT counted, ignored_reason FROM $v.ratings WHERE uid = $1`, [dup.uid]))[0]).toEqual({
      counted: false,
      ignored_reason: "duplicate",
    });
    expect(await stats(performer.address)).toMatchObject({ rating_count: 1, reputation: 5 });
  });
});

describe("disputes", () => {
  const APPEAL_WINDOW = 3 * 86_400 + 1;
  const dispute = async (id: bigint) =>
    (await q(`SELECT * FROM $v.disputes WHERE id = $1`, [disputeUuid(31337, c.MissionEscrow.address, id)]))[0]!;

  it("PosterWins: the mission is Cancelled, the poster wins 100 XP and the performer loses 50", async () => {
    const [poster, performer] = [await env.freshUser(), await env.freshUser()];
    await env.completeMission(await env.freshUser(), performer, usdc(100)); // 59 XP to lose from
    const d = await env.disputed(poster, performer, usdc(100), poster);
    expect(await dispute(d.disputeId)).toMatchObject({
      state: "Pending",
      outcome: "None",
      initiator: lower(poster.address),
      ddr_amount: "5000000",
    });
    expect((await mission(d.onChainId))!.state).toBe("Disputed");
    const evidence = keccak256(toHex("poster evidence"));
    await escrow(poster, "submitEvidence", [d.disputeId, poster.address, evidence]);
    expect(await dispute(d.disputeId)).toMatchObject({ poster_evidence_hash: evidence, performer_evidence_hash: null });
    await env.resolve(d.disputeId, 1);
    expect(await dispute(d.disputeId)).toMatchObject({
      state: "Resolved",
      outcome: "PosterWins",
      resolver: lower(env.resolver.address),
    });
    await env.timeTravel(APPEAL_WINDOW);
    const pool = (await env.client.readContract({ address: c.MissionEscrow.address, abi: missionEscrowAbi as Abi, functionName: "resolverPool" })) as bigint;
    await escrow(poster, "finalizeDispute", [d.disputeId]);
    expect(await dispute(d.disputeId)).toMatchObject({
      state: "Finalized",
      outcome: "PosterWins",
      by_default: false,
      mission_state: "Cancelled",
      payout_poster: "105000000", // the whole reward and the poster's own DDR back
      payout_performer: "0",
      payout_pool: "0",
      payout_resolver: (pool < 5_000_000n ? pool : 5_000_000n).toString(), // from the resolver pool
      payout_resolver_address: lower(env.resolver.address),
    });
    expect((await mission(d.onChainId))!.state).toBe("Cancelled");
    expect(await stats(poster.address)).toMatchObject({ disputes_won: 1, total_xp: 100, total_spent: "0" });
    expect(await stats(performer.address)).toMatchObject({ disputes_lost: 1, total_xp: 9, streak_count: 0 });
    expect((await ledger(performer.address)).at(-1)).toMatchObject({
      source: "dispute_lost",
      xp_delta: -50,
      balance_after: 9,
    });
  });

  it("PerformerWins, Split and Cancelled outcomes", async () => {
    const [poster, performer] = [await env.freshUser(), await env.freshUser()];
    const win = await env.disputed(poster, performer, usdc(100), poster);
    const split = await env.disputed(poster, performer, usdc(100), performer);
    const voided = await env.disputed(poster, performer, usdc(100), performer);
    await env.resolve(win.disputeId, 2);
    await env.resolve(split.disputeId, 3, 30);
    await env.resolve(voided.disputeId, 4);
    await env.timeTravel(APPEAL_WINDOW);
    for (const d of [win, split, voided]) await escrow(poster, "finalizeDispute", [d.disputeId]);
    expect(await dispute(win.disputeId)).toMatchObject({
      outcome: "PerformerWins",
      mission_state: "Completed",
      payout_performer: "101500000", // 100 settled as on approval (96.5) and the poster's forfeited DDR (5)
    });
    expect(await dispute(split.disputeId)).toMatchObject({
      outcome: "Split",
      split_percentage: 30,
      mission_state: "Completed",
    });
    expect(await dispute(voided.disputeId)).toMatchObject({ outcome: "Cancelled", mission_state: "Cancelled" });
    expect((await mission(win.onChainId))!.state).toBe("Completed");
    expect((await mission(voided.onChainId))!.state).toBe("Cancelled");
    // Only PerformerWins has a winner; the poster had no XP to lose (totals never go below zero).
    expect(await stats(performer.address)).toMatchObject({
      disputes_won: 1,
      disputes_lost: 0,
      total_xp: 100,
      missions_completed: 2,
    });
    expect(await stats(poster.address)).toMatchObject({ disputes_won: 0, disputes_lost: 1, total_xp: 0 });
    expect(await ledger(poster.address)).toEqual([]);
  });

  it("an appeal: Resolved -> Appealed -> decided (overturned) and finalized in one call", async () => {
    const [poster, performer] = [await env.freshUser(), await env.freshUser()];
    const d = await env.disputed(poster, performer, usdc(100), poster);
    await env.resolve(d.disputeId, 1);
    await escrow(performer, "appealDispute", [d.disputeId, performer.address]);
    expect(await dispute(d.disputeId)).toMatchObject({
      state: "Appealed",
      appellant: lower(performer.address),
      lpp_amount: "5000000",
      appealed_outcome: "PosterWins",
    });
    await escrow(env.admin, "decideAppeal", [d.disputeId, 2, 0, keccak256(toHex("appeal"))]);
    expect(await dispute(d.disputeId)).toMatchObject({
      state: "Finalized",
      outcome: "PerformerWins",
      appeal_overturned: true,
      appeal_resolver: lower(env.admin.address),
      mission_state: "Completed",
    });
    expect(await stats(performer.address)).toMatchObject({ disputes_won: 1, total_xp: 100 });
  });
});

describe("guilds, boards, NFTs, builder scores, streaks, referrals", () => {
  it("join and leave move memberCount; a board mission pays guild_board, curation_success and guild XP", async () => {
    const member = await env.freshUser();
    const count = async () =>
      (await q(`SELECT member_count FROM $v.guilds WHERE on_chain_id = 1`))[0]!.member_count as number;
    const before = await count();
    await env.guilds(member, "join", [1, member.address]);
    expect(await count()).toBe(before + 1);
    const poster = await env.freshUser();
    const m = await env.createMission(poster, usdc(100), { guildId: 1 });
    await env.guilds(env.guildAdmin, "publishToBoard", [1, m.onChainId, env.guildAdmin.address, 0, true, "featured"]);
    const [entry] = await q(`SELECT * FROM $v.board_entries WHERE mission_id = $1`, [mid(m.onChainId)]);
    expect(entry).toMatchObject({
      guild_on_chain_id: 1,
      curator: lower(env.guildAdmin.address),
      featured: true,
      notes: "featured",
      active: true,
    });
    await env.acceptAndSubmit(member, m);
    await escrow(poster, "approveMission", [m.onChainId]);
    // 34 base, +10 % board = 37.4 -> 37
    expect(await ledger(member.address)).toEqual([
      {
        source: "mission_complete",
        xp_delta: 34,
        balance_after: 34,
        mission_id: mid(m.onChainId),
        multiplier_bps: 10000,
      },
      { source: "guild_board", xp_delta: 3, balance_after: 37, mission_id: mid(m.onChainId), multiplier_bps: 10000 },
      { source: "first_mission", xp_delta: 25, balance_after: 62, mission_id: mid(m.onChainId), multiplier_bps: 10000 },
    ]);
    const curation = await q(
      `SELECT xp_delta FROM $v.xp_ledger WHERE source = 'curation_success' AND mission_id = $1`,
      [mid(m.onChainId)],
    );
    expect(curation).toEqual([{ xp_delta: 20 }]);
    const [row] = await q(`SELECT guild_xp, active FROM $v.guild_members WHERE guild_on_chain_id = 1 AND account = $1`, [
      lower(member.address),
    ]);
    expect(row).toEqual({ guild_xp: 37, active: true });
    expect((await mission(m.onChainId))!.guild_uuid).toBeTruthy();
    await env.guilds(member, "leave", [1, member.address]);
    expect(await count()).toBe(before);
    expect(
      (await q(`SELECT active FROM $v.guild_members WHERE guild_on_chain_id = 1 AND account = $1`, [lower(member.address)]))[0]!
        .active,
    ).toBe(false);
  });

  it("an NFT mint carries its definition", async () => {
    const user = await env.freshUser();
    const r = await env.nft("mint", [user.address, 1n, 0n]);
    const tokenId = env.events(r, achievementNftAbi as Abi).find((e) => e.eventName === "AchievementMinted")!.args
      .tokenId as bigint;
    expect((await q(`SELECT * FROM $v.nfts WHERE token_id = $1`, [tokenId.toString()]))[0]).toMatchObject({
      owner: lower(user.address),
      achievement_id: "1",
      soulbound: true,
      type: "Milestone",
      name: "First Mission",
      mission_id: null,
    });
  });

  it("a Master builder completing a 5-mission streak: x1.5, then x1.5 x1.15", async () => {
    const [poster, builder] = [await env.freshUser(), await env.freshUser()];
    await env.reputation("setBuilderScore", [builder.address, 100]);
    expect((await stats(builder.address))!.builder_score).toBe(100);
    for (let i = 0; i < 5; i++) await env.completeMission(poster, builder, usdc(1));
    const rows = (await ledger(builder.address)).map((r) => [r.source, r.xp_delta, r.multiplier_bps]);
    // base 14: 14 x 1.5 = 21; first mission 25 x 1.5 = 37.5 -> 38; 5th: 14 x 1.5 x 1.15 = 24.15 -> 24 (+3)
    expect(rows).toEqual([
      ["mission_complete", 21, 15000],
      ["first_mission", 38, 15000],
      ["mission_complete", 21, 15000],
      ["mission_complete", 21, 15000],
      ["mission_complete", 21, 15000],
      ["mission_complete", 21, 15000],
      ["mission_streak", 3, 15000],
    ]);
    expect(await stats(builder.address)).toMatchObject({ streak_count: 5, total_xp: 146, level: 2 });
  });

  it("a referral pays 20 XP to the referrer at the referee's first completion", async () => {
    const [referrer, referee, poster] = [await env.freshUser(), await env.freshUser(), await env.freshUser()];
    await env.reputation("recordReferral", [referrer.address, referee.address]);
    expect(
      (await q(`SELECT rewarded FROM $v.referrals WHERE referee = $1`, [lower(referee.address)]))[0]!.rewarded,
    ).toBe(false);
    await env.completeMission(poster, referee, usdc(5));
    expect(await ledger(referrer.address)).toMatchObject([{ source: "referral", xp_delta: 20, balance_after: 20 }]);
    expect(
      (await q(`SELECT rewarded FROM $v.referrals WHERE referee = $1`, [lower(referee.address)]))[0]!.rewarded,
    ).toBe(true);
  });
});

describe("less common paths", () => {
  it("details update, roles, board removal, a collectible transfer", async () => {
    const [poster, member, other] = [await env.freshUser(), await env.freshUser(), await env.freshUser()];
    const m = await env.createMission(poster, usdc(10), { guildId: 1 });
    const newHash = keccak256(toHex("new details"));
    const updated = await escrow(poster, "updateDetails", [m.onChainId, newHash]);
    expect(await mission(m.onChainId)).toMatchObject({
      details_hash: newHash,
      details_updated_tx_hash: updated.transactionHash,
    });

    await env.guilds(member, "join", [1, member.address]);
    await env.guilds(env.guildAdmin, "setRoles", [1, member.address, 1, env.guildAdmin.address]);
    const memberRow = async () =>
      (await q(`SELECT * FROM $v.guild_members WHERE guild_on_chain_id = 1 AND account = $1`, [lower(member.address)]))[0];
    expect(await memberRow()).toMatchObject({
      roles: 1,
      is_curator: true,
      is_officer: false,
      is_admin: false,
      active: true,
    });
    const [roles] = await q(`SELECT payload FROM $v.journal WHERE type = 'ROLES_CHANGED' AND account = $1`, [
      lower(member.address),
    ]);
    expect(roles!.payload).toMatchObject({ previousRoles: 0, roles: 1, isCurator: true });

    await env.guilds(member, "publishToBoard", [1, m.onChainId, member.address, 5, false, "by a new curator"]);
    await env.guilds(member, "removeFromBoard", [1, m.onChainId, member.address]);
    expect(
      (await q(`SELECT active, removed_by FROM $v.board_entries WHERE mission_id = $1`, [mid(m.onChainId)]))[0],
    ).toEqual({
      active: false,
      removed_by: lower(member.address),
    });

    const minted = await env.nft("mint", [member.address, 100n, 0n]);
    const tokenId = env.events(minted, achievementNftAbi as Abi).find((e) => e.eventName === "AchievementMinted")!.args
      .tokenId as bigint;
    await env.send(member, c.AchievementNFT.address, achievementNftAbi as Abi, "transferFrom", [
      member.address,
      other.address,
      tokenId,
    ]);
    expect(
      (await q(`SELECT owner, minter, soulbound FROM $v.nfts WHERE token_id = $1`, [tokenId.toString()]))[0],
    ).toEqual({
      owner: lower(other.address),
      minter: lower(member.address),
      soulbound: false,
    });
  });

  it("a resolver who misses the deadline is released; no decision in 30 days finalizes by default (Split 50)", async () => {
    const [poster, performer] = [await env.freshUser(), await env.freshUser()];
    const d = await env.disputed(poster, performer, usdc(100), poster);
    await escrow(env.resolver, "takeDispute", [d.disputeId, env.resolver.address]);
    const row = async () => (await q(`SELECT * FROM $v.disputes WHERE on_chain_id = $1`, [d.disputeId.toString()]))[0]!;
    expect(await row()).toMatchObject({ state: "Investigating", resolver: lower(env.resolver.address) });
    await env.timeTravel(14 * 86_400 + 1);
    await escrow(poster, "releaseDispute", [d.disputeId]);
    expect(await row()).toMatchObject({ state: "Pending", resolver: null });
    await env.timeTravel(30 * 86_400);
    await escrow(poster, "finalizeDispute", [d.disputeId]);
    expect(await row()).toMatchObject({
      state: "Finalized",
      outcome: "Split",
      split_percentage: 50,
      by_default: true,
      payout_resolver: "0",
      payout_resolver_address: null,
      mission_state: "Completed",
    });
    expect((await stats(poster.address))!.disputes_won).toBe(0);
  });
});

describe("serving and restarting", () => {
  it("answers GraphQL at /graphql and /, and reports its progress over HTTP and in Postgres", async () => {
    const poster = await env.freshUser();
    const m = await env.createMission(poster, usdc(42));
    expect(await indexer.indexedBlock()).toBeGreaterThanOrEqual(Number(m.receipt.blockNumber));
    const progress = await indexedBlock(pool, schemas.viewsSchema);
    expect(progress.ready).toBe(true);
    expect(progress.block).toBeGreaterThanOrEqual(Number(m.receipt.blockNumber));
    for (const path of ["/graphql", "/"]) {
      const res = await fetch(`${indexer.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `{ missions(id: "${mid(m.onChainId)}") { state reward poster } userStats(address: "${lower(poster.address)}") { missionsPosted } }`,
        }),
      });
      expect(await res.json()).toEqual({
        data: {
          missions: { state: "Open", reward: "42000000", poster: lower(poster.address) },
          userStats: { missionsPosted: 1 },
        },
      });
    }
  });

  it("stop + restart (with a mission created while stopped) ends with the same rows, and the journal reader saw each event once", async () => {
    const tables = [
      "missions",
      "settlements",
      "disputes",
      "guilds",
      "guild_members",
      "board_entries",
      "nfts",
      "ratings",
      "builder_scores",
      "referrals",
      "operator_approvals",
      "user_stats",
      "xp_ledger",
      "journal",
      "achievement_definitions",
    ];
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const t of tables) out[t] = await q(`SELECT * FROM $v.${t} ORDER BY 1`);
      return out;
    };
    const before = await snapshot();
    await indexer.stop();
    env.setIndexer(undefined);
    const poster = await env.freshUser();
    const m = await env.createMission(poster, usdc(7));
    const head = await env.client.getBlockNumber();
    indexer = await launchIndexer(schemas);
    env.setIndexer(indexer);
    await indexer.waitForBlock(head);
    const after = await snapshot();
    expect((await mission(m.onChainId))!.state).toBe("Open");
    for (const t of tables) {
      const keep = (rows: unknown[]) =>
        rows.filter(
          (r) => !JSON.stringify(r).includes(lower(poster.address)) && !JSON.stringify(r).includes(mid(m.onChainId)),
        );
      expect(keep(after[t]!), t).toEqual(before[t]);
    }
    await new Promise((r) => setTimeout(r, 300));
    const all = (await q<{ id: string }>(`SELECT id FROM $v.journal ORDER BY id`)).map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(all);
  });
});
