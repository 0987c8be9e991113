// Feed ranking, search, nearby and presence (issue 7). No Hono: built from Deps, memoised per deps.
import type { Deps } from "../../deps.ts";
import { AppError } from "../../lib/errors.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import { discoveryRepository, type CandidateRow } from "../../repositories/discovery.repository.ts";
import { journalRepository } from "../../repositories/journal.repository.ts";
import { clusterPoints, zoomForRadius } from "./cluster.ts";
import {
  categoryPreferences, combine, distanceScore, GUILD_BOOST, posterReputationScore, rewardScore, sortFeed,
  urgencyScore, xpMatchScore, type SortBy,
} from "./feed-scoring.ts";
import { boundingBox, checkPresence, distanceMeters } from "./geo.ts";
import { renderHighlight } from "./highlight.ts";
import { isMissionParty, viewLocation } from "./location-privacy.ts";

/** Missions scored per feed request (the newest / best-by-sort window); total still counts all. */
export const FEED_WINDOW = 1000;
/** Points clustered per nearby request (nearest first); totalCount still counts all. */
export const CLUSTER_WINDOW = 1000;
export const LOCATION_RETENTION_DAYS = 30;

const iso = (sec: string) => new Date(Number(sec) * 1000).toISOString();
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const poster = (r: CandidateRow) => ({
  id: r.poster_id ?? r.poster.toLowerCase(),
  evmAddress: r.poster.toLowerCase(),
  resolvedName: r.poster_name || short(r.poster.toLowerCase()),
});

/**
 * The distance a viewer is shown (and scored with): to the exact point for the parties, to the
 * public (neighbourhood) point for everyone else, so distances cannot be used to trilaterate.
 * Filtering by radius still uses the exact distance. Rounded to 0.1 m.
 */
function shownDistance(r: CandidateRow, viewer: string | undefined, lat?: number, lng?: number): number | null {
  if (lat === undefined || lng === undefined || r.latitude === null || r.longitude === null) return null;
  const loc = viewLocation(r.latitude, r.longitude, isMissionParty(viewer, r.poster, r.performer));
  return Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10;
}

export interface FeedQuery {
  latitude?: number;
  longitude?: number;
  category?: string;
  guildId?: string;
  searchQuery?: string;
  sortBy: SortBy;
  skip: number;
  take: number;
}

function eligibility(r: CandidateRow, guilds: Map<string, number>): boolean {
  if (!r.guild_uuid) return true;
  const guildXp = guilds.get(r.guild_uuid);
  if (guildXp === undefined) return false;
  return r.min_guild_xp === null || guildXp >= r.min_guild_xp;
}

export function createDiscoveryService(deps: Deps) {
  const repo = discoveryRepository(deps.database.pool, deps.env.CHAIN_SCHEMA);
  const journal = journalRepository(deps.database.pool, deps.env.CHAIN_SCHEMA);
  // "Now" is chain time: expiries and urgency are measured in block time, which on a test chain can
  // run ahead of the wall clock. The later of the two, read at most once a second.
  let clock = { at: 0, chainSec: 0 };
  const now = async () => {
    const wallSec = Math.floor(Date.now() / 1000);
    if (Date.now() - clock.at > 1000) clock = { at: Date.now(), chainSec: (await journal.indexedTime()) ?? 0 };
    return Math.max(wallSec, clock.chainSec);
  };

  return {
    repo,
    async feed(user: UserRow, f: FeedQuery) {
      const nowSec = await now();
      const hasPoint = f.latitude !== undefined && f.longitude !== undefined;
      const order = f.sortBy === "reward" ? "reward" : f.sortBy === "urgency" ? "urgency" : f.sortBy === "distance" && hasPoint ? "distance" : "created";
      const [{ rows, total }, ctx] = await Promise.all([
        repo.candidates({ ...f, nowSec, order, limit: FEED_WINDOW }),
        repo.userContext(user.evmAddress, user.id),
      ]);
      if (f.searchQuery) void repo.recordEvent({ userId: user.id, kind: "search", query: f.searchQuery, category: f.category ?? rows[0]?.category ?? null }).catch(() => {});
      const prefs = categoryPreferences(ctx.engagement);
      const scored = rows.map((r) => {
        const reward = BigInt(r.reward);
        const d = shownDistance(r, user.evmAddress, f.latitude, f.longitude);
        const rs = rewardScore(reward);
        const factors = combine({
          eligibility: eligibility(r, ctx.guilds),
          rewardScore: rs,
          urgencyScore: urgencyScore(Number(r.expires_at), nowSec),
          distanceScore: distanceScore(d),
          xpMatchScore: xpMatchScore(ctx.totalXp, rs),
          guildBoost: r.guild_uuid && ctx.guilds.has(r.guild_uuid) ? GUILD_BOOST : 1,
          posterReputationScore: posterReputationScore(r.rating_sum, r.rating_count),
          categoryPreferenceScore: prefs.get((r.category ?? "").toLowerCase()) ?? 0,
        });
        return { id: r.id, row: r, reward, distance: d, expiresAt: Number(r.expires_at), factors };
      });
      const page = sortFeed(scored, f.sortBy).slice(f.skip, f.skip + f.take);
      return {
        missions: page.map((s, i) => ({
          mission: {
            id: s.row.id,
            title: s.row.title ?? "",
            category: s.row.category ?? "",
            rewardAmount: s.reward.toString(),
            expiresAt: iso(s.row.expires_at),
            poster: poster(s.row),
            guild: s.row.guild_uuid ? { id: s.row.guild_uuid, name: s.row.guild_name ?? "" } : null,
            location:
              s.row.latitude === null || s.row.longitude === null
                ? null
                : viewLocation(s.row.latitude, s.row.longitude, isMissionParty(user.evmAddress, s.row.poster, s.row.performer)),
          },
          factors: s.factors,
          rank: f.skip + i + 1,
        })),
        total,
      };
    },

    async recordView(user: UserRow, missionId: string, dwellMs: number) {
      const m = await deps.repos.missions.findById(missionId);
      if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
      await repo.recordEvent({ userId: user.id, kind: "view", missionId, category: m.category, dwellMs });
      return { recorded: true };
    },

    async search(user: UserRow | null, f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
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
      };
    },

    async nearby(
      viewer: UserRow | null,
      f: { latitude: number; longitude: number; radius: number; limit: number; category?: string; guildId?: string; minReward?: bigint; maxReward?: bigint },
    ) {
      const bounds = boundingBox(f.latitude, f.longitude, f.radius);
      const [{ rows, total }, ctx] = await Promise.all([
        repo.candidates({
          nowSec: await now(), category: f.category, guildId: f.guildId, minReward: f.minReward, maxReward: f.maxReward,
          latitude: f.latitude, longitude: f.longitude, within: { ...bounds, radius: f.radius }, order: "distance", limit: CLUSTER_WINDOW,
        }),
        viewer ? repo.userContext(viewer.evmAddress, null) : Promise.resolve(null),
      ]);
      const viewed = rows
        .map((r) => ({
          r,
          loc: viewLocation(r.latitude!, r.longitude!, isMissionParty(viewer?.evmAddress, r.poster, r.performer)),
          distance: shownDistance(r, viewer?.evmAddress, f.latitude, f.longitude)!,
        }))
        .sort((a, b) => a.distance - b.distance);
      return {
        missions: viewed.slice(0, f.limit).map(({ r, loc, distance }) => ({
          id: r.id,
          title: r.title ?? "",
          category: r.category ?? "",
          rewardAmount: r.reward,
          guildId: r.guild_uuid ?? "",
          guildName: r.guild_name ?? "",
          expiresAt: iso(r.expires_at),
          distance,
          isEligible: ctx ? eligibility(r, ctx.guilds) : !r.guild_uuid,
          location: loc,
        })),
        // Clusters from the shown (privacy-adjusted) positions: they never reveal more than the markers.
        clusters: clusterPoints(viewed.map((v) => v.loc), zoomForRadius(f.latitude, f.radius)),
        totalCount: total,
        bounds,
      };
    },

    async verifyPresence(user: UserRow, missionId: string, at: { latitude: number; longitude: number; accuracy: number }) {
      const m = await deps.repos.missions.findById(missionId);
      if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
      if (m.latitude === null || m.longitude === null || m.radius === null) {
        throw new AppError("INVALID_STATE", "The mission has no location to verify presence against");
      }
      const result = checkPresence({ latitude: m.latitude, longitude: m.longitude, radius: m.radius }, at);
      await repo.recordLocation({ userId: user.id, missionId, ...at, distance: result.distanceFromMission, verified: result.verified });
      return result;
    },
  };
}
export type DiscoveryService = ReturnType<typeof createDiscoveryService>;

const cache = new WeakMap<Deps, DiscoveryService>();
export function discoveryService(deps: Deps): DiscoveryService {
  let s = cache.get(deps);
  if (!s) {
    s = createDiscoveryService(deps);
    cache.set(deps, s);
  }
  return s;
}
