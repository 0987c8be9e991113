// The one place deciding how precisely a mission's location is shown (spec "Location privacy
// levels"): exact (precision 0) to the poster, and to the performer (there is one only after
// acceptance); everyone else gets the center of the mission's geohash-6 cell (~1.2 km x 0.6 km,
// precision 2 "neighborhood"). Used by the mission views, feed, map and WebSocket events.
import { geohashDecode, geohashEncode } from "./geo.ts";

export const NEIGHBORHOOD_GEOHASH_LENGTH = 6;
export const EXACT_GEOHASH_LENGTH = 9;
/** "block" (precision 1): a geohash-7 cell, ~150 m x 150 m. */
export const BLOCK_GEOHASH_LENGTH = 7;

/** A position as kept at a vault precision: as sent (exact) or the center of its block/neighborhood cell. */
export function positionAt(latitude: number, longitude: number, precision: "exact" | "block" | "neighborhood") {
  if (precision === "exact") return { latitude, longitude };
  const cell = geohashDecode(geohashEncode(latitude, longitude, precision === "block" ? BLOCK_GEOHASH_LENGTH : NEIGHBORHOOD_GEOHASH_LENGTH));
  return { latitude: round6(cell.latitude), longitude: round6(cell.longitude) };
}

export interface ViewedLocation {
  latitude: number;
  longitude: number;
  geohash: string;
  /** 0 exact, 2 neighborhood (1 "block" is not used). */
  precision: 0 | 2;
}

export function isMissionParty(viewer: string | undefined | null, poster: string, performer: string | null): boolean {
  if (!viewer) return false;
  const v = viewer.toLowerCase();
  return v === poster.toLowerCase() || (performer !== null && v === performer.toLowerCase());
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function viewLocation(latitude: number, longitude: number, exact: boolean): ViewedLocation {
  if (exact) return { latitude, longitude, geohash: geohashEncode(latitude, longitude, EXACT_GEOHASH_LENGTH), precision: 0 };
  const geohash = geohashEncode(latitude, longitude, NEIGHBORHOOD_GEOHASH_LENGTH);
  const cell = geohashDecode(geohash);
  return { latitude: round6(cell.latitude), longitude: round6(cell.longitude), geohash, precision: 2 };
}
