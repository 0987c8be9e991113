// Feed ranking, search, nearby and presence (issue 7). No Hono: built from Deps, memoised per deps.
import type { Deps } from "../../deps.ts";
import { AppError } from "../../lib/errors.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import { discoveryRepository, type CandidateRow, type DisplayRow } from "../../repositories/discovery.repository.ts";
import { journalRepository } from "../../repositories/journal.repository.ts";
import { clusterPoints, zoomForRadius } from "./cluster.ts";
import {
  categoryPreferences, combine, distanceScore, GUILD_BOOST, posterReputationScore, rewardScore, sortFeed,
  urgencyScore, xpMatchScore, type SortBy,
} from "./feed-scoring.ts";
import { boundingBox, checkPresence, distanceMeters } from "./geo.ts";
import { renderHighlight } from "./highlight.ts";
import { isMissionParty, viewLocation } from "./location-privacy.ts";

/**
 * Missions scored per feed request: with a location (relevance, distance) the nearest open
 * missions within FEED_RADIUS_M, topped up with the newest; otherwise the first in the sort's
 * column order. `total` counts matches up to this window (the pages a client can reach).
 */
export const FEED_WINDOW = 1000;
/** The distance score is 0 beyond 50 km: the nearest-first window looks no further. */
export const FEED_RADIUS_M = 50_000;
/** Points clustered per nearby request (nearest first); totalCount counts up to this many. */
export const CLUSTER_WINDOW = 1000;
export const LOCATION_RETENTION_DAYS = 30;

const iso = (sec: string) => new Date(Number(sec) * 1000).toISOString();
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const poster = (r: CandidateRow, d: DisplayRow | undefined) => ({
  id: d?.poster_id ?? r.poster.toLowerCase(),
  evmAddress: r.poster.toLowerCase(),
  resolvedName: d?.poster_name || short(r.poster.toLowerCase()),
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

function eligibility(r: Pick<CandidateRow, "guild_uuid" | "min_guild_xp">, guilds: Map<string, number>): boolean {
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
      const base = { nowSec, category: f.category, guildId: f.guildId, searchQuery: f.searchQuery };
      const order = f.sortBy === "reward" ? "reward" : f.sortBy === "urgency" ? "urgency" : "created";
      // One row past the window tells whether the total is capped.
      const want = FEED_WINDOW + 1;
      const candidates = async (): Promise<CandidateRow[]> => {
        if (f.latitude === undefined || f.longitude === undefined || order !== "created") return repo.ordered({ ...base, order, limit: want });
        const near = await repo.nearest({
          ...base, latitude: f.latitude, longitude: f.longitude, radius: FEED_RADIUS_M,
          box: boundingBox(f.latitude, f.longitude, FEED_RADIUS_M), limit: want, scoring: true,
        });
        if (near.length >= want) return near;
        // Fewer than a window within 50 km: the newest of the rest (distance score 0, or 0.5 without a
        // location) fill it up. The rest is selected in SQL (outside the radius or without a location):
        // the near rows are not read twice, and near rows no longer take the fill-up's slots.
        const rest = await repo.ordered({
          ...base, order: "created", limit: want - near.length,
          outside: { latitude: f.latitude, longitude: f.longitude, radius: FEED_RADIUS_M },
        });
        return near.concat(rest);
      };
      const [all, ctx] = await Promise.all([candidates(), repo.userContext(user.evmAddress, user.id)]);
      const capped = all.length > FEED_WINDOW;
      const rows = all.slice(0, FEED_WINDOW);
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
      const shown = await repo.display(page.map((p) => p.row));
      return {
        missions: page.map((s, i) => {
          const d = shown.get(s.id);
          return {
            mission: {
              id: s.row.id,
              title: d?.title ?? "",
              category: s.row.category ?? "",
              rewardAmount: s.reward.toString(),
              expiresAt: iso(s.row.expires_at),
              poster: poster(s.row, d),
              guild: s.row.guild_uuid ? { id: s.row.guild_uuid, name: d?.guild_name ?? "" } : null,
              location:
                s.row.latitude === null || s.row.longitude === null
                  ? null
                  : viewLocation(s.row.latitude, s.row.longitude, isMissionParty(user.evmAddress, s.row.poster, s.row.performer)),
            },
            factors: s.factors,
            rank: f.skip + i + 1,
          };
        }),
        total: rows.length,
        totalCapped: capped,
      };
    },

    async recordView(user: UserRow, missionId: string, dwellMs: number) {
      const m = await deps.repos.missions.findById(missionId);
      if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
      await repo.recordEvent({ userId: user.id, kind: "view", missionId, category: m.category, dwellMs });
      return { recorded: true };
    },

    async search(user: UserRow | null, f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
      const { rows, total, capped } = await repo.search(f);
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
        totalCapped: capped,
      };
    },

    async nearby(
      viewer: UserRow | null,
      f: { latitude: number; longitude: number; radius: number; limit: number; category?: string; guildId?: string; minReward?: bigint; maxReward?: bigint },
    ) {
      const bounds = boundingBox(f.latitude, f.longitude, f.radius);
      const [all, guilds] = await Promise.all([
        repo.nearest({
          nowSec: await now(), category: f.category, guildId: f.guildId, minReward: f.minReward, maxReward: f.maxReward,
          latitude: f.latitude, longitude: f.longitude, radius: f.radius, box: bounds, limit: CLUSTER_WINDOW + 1,
        }),
        viewer ? repo.userGuilds(viewer.evmAddress) : Promise.resolve(null),
      ]);
      const rows = all.slice(0, CLUSTER_WINDOW);
      const viewed = rows
        .map((r) => {
          const loc = viewLocation(r.latitude!, r.longitude!, isMissionParty(viewer?.evmAddress, r.poster, r.performer));
          // = shownDistance(), from the location already computed.
          return { r, loc, distance: Math.round(distanceMeters(f.latitude, f.longitude, loc.latitude, loc.longitude) * 10) / 10 };
        })
        .sort((a, b) => a.distance - b.distance || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
      const page = viewed.slice(0, f.limit);
      const shown = await repo.display(page.map((v) => v.r));
      return {
        missions: page.map(({ r, loc, distance }) => {
          const d = shown.get(r.id);
          const row = { ...r, min_guild_xp: d?.min_guild_xp ?? null };
          return {
            id: r.id,
            title: d?.title ?? "",
            category: r.category ?? "",
            rewardAmount: r.reward,
            guildId: r.guild_uuid ?? "",
            guildName: d?.guild_name ?? "",
            expiresAt: iso(r.expires_at),
            distance,
            isEligible: guilds ? eligibility(row, guilds) : !r.guild_uuid,
            location: loc,
          };
        }),
        // Clusters from the shown (privacy-adjusted) positions: they never reveal more than the markers.
        clusters: clusterPoints(viewed.map((v) => v.loc), zoomForRadius(f.latitude, f.radius)),
        totalCount: rows.length,
        totalCapped: all.length > CLUSTER_WINDOW,
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
