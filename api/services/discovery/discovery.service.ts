// Feed ranking, search, nearby and presence. No Hono: built once in the composition root (api/deps.ts).
import type { z } from "zod";
import { eligibility, eligibilityUser, type EligibilityMission } from "../../../domain/index.ts";
import { AppError } from "../../lib/errors.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import type { DiscoveryRepository } from "../../repositories/discovery.repository.ts";
import type { CandidateRow, DisplayRow } from "../../repositories/discovery-rows.ts";
import type { DiscoveryChangesRepository } from "../../repositories/discovery-read-model.repository.ts";
import type { DiscoveryFeedRepository } from "../../repositories/discovery-feed.repository.ts";
import type { JournalRepository } from "../../repositories/journal.repository.ts";
import type { MissionsRepository } from "../../repositories/missions.repository.ts";
import type { FeedQuery as FeedQuerySchema, PresenceBody, SearchQuery } from "../../routes/discovery/discovery.schemas.ts";
import { clusterPoints, zoomForRadius } from "./cluster.ts";
import type { FeedIndex, MapRow } from "./feed-index/index.ts";
import { categoryPreferences, combine, experience, GUILD_BOOST, WEIGHTS } from "./feed-scoring.ts";
import { boundingBox, checkPresence, distanceMeters } from "./geo.ts";
import { renderHighlight } from "./highlight.ts";
import { isMissionParty, positionAt, viewLocation } from "./location-privacy.ts";
import type { PrivacyLens, PrivacyService } from "../privacy.ts";

export const LOCATION_RETENTION_DAYS = 30;
/** The real-time change feed is kept this long: a copy reconnecting after a blip catches up over seconds. */
export const CHANGE_FEED_RETENTION_HOURS = 24;

const iso = (sec: string) => new Date(Number(sec) * 1000).toISOString();
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const poster = (r: CandidateRow, d: DisplayRow | undefined, lens: PrivacyLens) => ({
  id: d?.poster_id ?? r.poster.toLowerCase(),
  evmAddress: r.poster.toLowerCase(),
  // A name hidden from this reader resolves like no name (mission-view.ts does the same).
  resolvedName: lens.field(r.poster, "displayName", d?.poster_name ?? null) || short(r.poster.toLowerCase()),
});

/** Rows with a location as `viewer` sees them, nearest first (ties: id), the way the map lists them. */
function byShownDistance<R extends Pick<CandidateRow, "id" | "latitude" | "longitude" | "poster" | "performer">>(rows: R[], viewer: string | undefined, lat: number, lng: number) {
  return rows
    .filter((r) => r.latitude !== null && r.longitude !== null)
    .map((r) => {
      const loc = viewLocation(r.latitude!, r.longitude!, isMissionParty(viewer, r.poster, r.performer));
      return { r, loc, distance: Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10 };
    })
    .sort((a, b) => a.distance - b.distance || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
}

/** GET /feed's query, as the route's schema validates it. */
export type FeedQuery = z.infer<typeof FeedQuerySchema>;

/** A read-model row's side of the eligibility rule (what accept reads from the mission's row). */
const terms = (r: Pick<CandidateRow, "guild_uuid" | "min_guild_xp" | "min_reputation" | "premium">): EligibilityMission => ({
  guild: r.guild_uuid, minGuildXp: r.min_guild_xp, minReputation: r.min_reputation, premium: r.premium,
});
/** A signed-out map viewer: no memberships, reputation 0, level 1. */
const ANONYMOUS = eligibilityUser(new Map<string, number>(), 0, 1);

export function discoveryService(deps: {
  repo: DiscoveryRepository;
  journal: Pick<JournalRepository, "indexedTime">;
  missions: Pick<MissionsRepository, "findById">;
  feed: DiscoveryFeedRepository;
  /** The relevance order without a text query, in memory (feed-index/); without it, SQL ranks every page. */
  feedIndex?: Pick<FeedIndex, "rank" | "near" | "sync" | "size" | "loaded">;
  changes?: Pick<DiscoveryChangesRepository, "purge" | "purgeRemoved">;
  /** The posters' names as their settings let the reader see them: one lookup per page. */
  privacy: Pick<PrivacyService, "lens" | "locationSharing">;
}) {
  const { repo, journal } = deps;
  // "Now" is chain time: expiries and urgency are measured in block time, which on a test chain can
  // run ahead of the wall clock. The later of the two. The chain's time is read at most once a second
  // and in the background once known (a request uses the last reading, at most a second or so old),
  // so no request but the first waits for that read.
  let clock = { at: 0, chainSec: 0 };
  let reading: Promise<void> | null = null;
  const readClock = () =>
    (reading ??= (async () => {
      try {
        clock = { at: Date.now(), chainSec: (await journal.indexedTime()) ?? 0 };
      } finally {
        reading = null;
      }
    })());
  const now = async () => {
    if (clock.at === 0) await readClock();
    else if (Date.now() - clock.at > 1000) void readClock().catch(() => {});
    return Math.max(Math.floor(Date.now() / 1000), clock.chainSec);
  };

  // The display names of a page: rows read through the index carry them (one statement with the
  // rows); SQL pages read them here.
  const displayOf = async (rows: (CandidateRow & Partial<Omit<DisplayRow, "id">>)[]): Promise<Map<string, DisplayRow>> =>
    rows.every((r) => r.poster_name !== undefined)
      ? new Map(rows.map((r) => [r.id, { id: r.id, guild_name: r.guild_name ?? null, poster_id: r.poster_id ?? null, poster_name: r.poster_name ?? null }]))
      : repo.display(rows);

  return {
    /**
     * Loads the feed index in the background at start, so no reader pays the load (about 12 s per
     * million open missions); a /feed meanwhile waits for the same load.
     */
    warmUp: async () => {
      await deps.feedIndex?.sync();
    },
    feedIndexStatus: () => ({ ready: deps.feedIndex?.loaded() ?? true, missions: deps.feedIndex?.size() ?? 0 }),
    /** Location history retention (spec: 30 days). */
    purgeLocationHistory: () => repo.purgeLocationHistory(LOCATION_RETENTION_DAYS),
    /** Change feed retention. */
    purgeChangeFeed: async () =>
      deps.changes ? (await deps.changes.purge(CHANGE_FEED_RETENTION_HOURS)) + (await deps.changes.purgeRemoved(CHANGE_FEED_RETENTION_HOURS)) : 0,

    async feed(user: UserRow, f: FeedQuery) {
      const nowSec = await now();
      const base = { nowSec, category: f.category, guildId: f.guildId, searchQuery: f.searchQuery };
      const ctx = await repo.userContext(user.evmAddress, user.id);
      const reader = {
        latitude: f.latitude, longitude: f.longitude, viewer: user.evmAddress.toLowerCase(),
        experience: experience(ctx.totalXp), guilds: ctx.guilds, reputation: ctx.reputation, level: ctx.level, preferences: categoryPreferences(ctx.engagement),
        weights: WEIGHTS, guildBoost: GUILD_BOOST, skip: f.skip, take: f.take,
      };
      // By relevance without a text query: the in-memory index (feed-index/). Otherwise SQL over the
      // read model (feed-scoring.ts is the formula's reference for both). The exact total: SQL's sums.
      const index = deps.feedIndex && f.sortBy === "relevance" && !f.searchQuery ? deps.feedIndex : null;
      const [rows, total] = await Promise.all([
        index ? index.rank({ ...base, ...reader }).then((r) => r.rows) : deps.feed.page({ ...base, ...reader, sortBy: f.sortBy }),
        deps.feed.total(base),
      ]);
      if (f.searchQuery) void repo.recordEvent({ userId: user.id, kind: "search", query: f.searchQuery, category: f.category ?? rows[0]?.category ?? null }).catch(() => {});
      const who = eligibilityUser(ctx.guilds, ctx.reputation, ctx.level);
      const page = rows.map((r) => {
        const factors = combine({
          // The rule itself, on the row's terms: the order's copy (index or SQL) put these rows here.
          eligibility: eligibility(who, terms(r)).eligible, rewardScore: r.reward_score, urgencyScore: r.urgency_score, distanceScore: r.distance_score,
          xpMatchScore: r.xp_match_score, guildBoost: r.guild_boost, posterReputationScore: r.poster_score,
          categoryPreferenceScore: r.category_score,
        });
        return { id: r.id, row: r, reward: BigInt(r.reward), factors };
      });
      const [shown, lens] = await Promise.all([
        displayOf(page.map((p) => p.row)),
        deps.privacy.lens(user.evmAddress, page.map((p) => p.row.poster)),
      ]);
      return {
        missions: page.map((s, i) => {
          const d = shown.get(s.id);
          return {
            mission: {
              id: s.row.id,
              title: s.row.title ?? "",
              category: s.row.category ?? "",
              rewardAmount: s.reward.toString(),
              expiresAt: iso(s.row.expires_at),
              poster: poster(s.row, d, lens),
              guild: s.row.guild_uuid ? { id: s.row.guild_uuid, name: d?.guild_name ?? "" } : null,
              location:
                s.row.latitude === null || s.row.longitude === null
                  ? null
                  : viewLocation(s.row.latitude, s.row.longitude, isMissionParty(user.evmAddress, s.row.poster, s.row.performer)),
              minReputation: s.row.min_reputation ?? null,
              premium: s.row.premium ?? false,
            },
            factors: s.factors,
            rank: f.skip + i + 1,
          };
        }),
        total,
        totalCapped: false,
      };
    },

    async recordView(user: UserRow, missionId: string, dwellMs: number) {
      const m = await deps.missions.findById(missionId);
      if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
      await repo.recordEvent({ userId: user.id, kind: "view", missionId, category: m.category, dwellMs });
      return { recorded: true };
    },

    async search(user: UserRow | null, f: z.infer<typeof SearchQuery>) {
      const { rows, total } = await repo.search(f);
      if (user) void repo.recordEvent({ userId: user.id, kind: "search", query: f.q, category: f.category ?? rows[0]?.category ?? null }).catch(() => {});
      return {
        results: rows.map((r) => ({
          id: r.id,
          title: r.title,
          description: r.description,
          relevanceScore: Math.round(r.rank * 1e6) / 1e6,
          highlightedTitle: renderHighlight(r.headline),
        })),
        query: f.q,
        total,
        totalCapped: false,
      };
    },

    async nearby(
      viewer: UserRow | null,
      f: { latitude: number; longitude: number; radius: number; limit: number; category?: string; guildId?: string; minReward?: bigint; maxReward?: bigint },
    ) {
      const bounds = boundingBox(f.latitude, f.longitude, f.radius);
      const viewerAddress = viewer?.evmAddress;
      const q = {
        nowSec: await now(), category: f.category, guildId: f.guildId, minReward: f.minReward, maxReward: f.maxReward,
        latitude: f.latitude, longitude: f.longitude, radius: f.radius, viewer: viewerAddress,
      };
      // The in-memory index answers the map (positions and the nearest) unless a reward bound is set
      // (it keeps reward scores, not amounts); SQL over the read model otherwise (the cells + KNN).
      const index = deps.feedIndex && f.minReward === undefined && f.maxReward === undefined ? deps.feedIndex : null;
      // The index's rows carry their guild names; SQL's rows read them for the page.
      type Marker = Omit<MapRow, "latitude" | "longitude"> & Pick<CandidateRow, "latitude" | "longitude"> & { guild_name: string | null };
      const [[candidates, positions], guilds] = await Promise.all([
        index
          ? index.near({ ...q, limit: f.limit }).then((r) => [r.nearest as Marker[], r.positions] as const)
          : Promise.all([repo.nearest({ ...q, limit: f.limit }), repo.positions(q)]).then(async ([rows, positions]) => {
              const shown = await displayOf(rows);
              return [rows.map((r) => ({ ...r, guild_name: shown.get(r.id)?.guild_name ?? null })), positions] as const;
            }),
        viewer ? repo.userContext(viewer.evmAddress, null).then((c) => eligibilityUser(c.guilds, c.reputation, c.level)) : Promise.resolve(ANONYMOUS),
      ]);
      const page = byShownDistance(candidates, viewerAddress, f.latitude, f.longitude).slice(0, f.limit);
      return {
        missions: page.map(({ r, loc, distance }) => {
          return {
            id: r.id,
            title: r.title ?? "",
            category: r.category ?? "",
            rewardAmount: r.reward,
            guildId: r.guild_uuid ?? "",
            guildName: r.guild_name ?? "",
            expiresAt: iso(r.expires_at),
            distance,
            isEligible: eligibility(guilds, terms(r)).eligible,
            minReputation: r.min_reputation ?? null,
            premium: r.premium ?? false,
            location: loc,
          };
        }),
        // Clusters of every mission in the radius at the positions this viewer is shown (the exact
        // point only for their own missions): they never reveal more than the markers.
        clusters: clusterPoints(positions, zoomForRadius(f.latitude, f.radius)),
        totalCount: positions.reduce((n, p) => n + p.count, 0),
        totalCapped: false,
        bounds,
      };
    },

    async verifyPresence(user: UserRow, missionId: string, at: z.infer<typeof PresenceBody>) {
      const m = await deps.missions.findById(missionId);
      if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
      // Presence is the performer's proof (the poster may check it too). Anyone else would learn the
      // distance to the hidden exact point, and three answers locate it: refused before any distance.
      const party = [m.poster, m.performer].some((a) => a !== null && a.toLowerCase() === user.evmAddress.toLowerCase());
      if (!party) throw new AppError("FORBIDDEN", "Only the mission's performer or poster may verify presence");
      if (m.latitude === null || m.longitude === null || m.radius === null) {
        throw new AppError("INVALID_STATE", "The mission has no location to verify presence against");
      }
      const result = checkPresence({ latitude: m.latitude, longitude: m.longitude, radius: m.radius }, at);
      // The check is always made; what is kept of it is the user's choice (vault locationSharing).
      const sharing = await deps.privacy.locationSharing(user.evmAddress);
      if (sharing.enabled) {
        await repo.recordLocation({
          userId: user.id, missionId, ...at, ...positionAt(at.latitude, at.longitude, sharing.precision),
          distance: result.distanceFromMission, verified: result.verified, latestOnly: !sharing.liveTrackingConsent,
        });
      }
      return result;
    },
  };
}
export type DiscoveryService = ReturnType<typeof discoveryService>;
