// Pure geography: great-circle distance, bounding boxes, geohash (base32, standard) and the
// geofence rule of POST /missions/:id/verify-presence. No I/O.

export const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Haversine distance in meters. */
export function distanceMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The straight-line distance through the sphere between two points `d` meters apart on it: the radius
 * test of the read model's cubes (cube_distance of api.geo_ecef) and of the feed index's map.
 */
export const chord = (d: number) => 2 * EARTH_RADIUS_M * Math.sin(Math.min(Math.PI, d / EARTH_RADIUS_M) / 2);

/** A point on the sphere in meters, as api.geo_ecef computes it (the read model's cube). */
export function ecef(lat: number, lng: number): [number, number, number] {
  const f = Math.PI / 180;
  return [
    EARTH_RADIUS_M * Math.cos(lat * f) * Math.cos(lng * f),
    EARTH_RADIUS_M * Math.cos(lat * f) * Math.sin(lng * f),
    EARTH_RADIUS_M * Math.sin(lat * f),
  ];
}

export interface Bounds {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** A box containing every point within `radius` meters (longitude span widened near the poles; no antimeridian wrap: clamped). */
export function boundingBox(lat: number, lng: number, radius: number): Bounds {
  const dLat = (radius / EARTH_RADIUS_M) * (180 / Math.PI);
  const north = Math.min(90, lat + dLat);
  const south = Math.max(-90, lat - dLat);
  const maxAbsLat = Math.max(Math.abs(north), Math.abs(south));
  const cos = Math.cos(rad(maxAbsLat));
  const dLng = cos < 1e-9 ? 180 : Math.min(180, dLat / cos);
  return { north, south, east: Math.min(180, lng + dLng), west: Math.max(-180, lng - dLng) };
}

/**
 * The planar point the nearby search indexes (api.geo_point() of migration 0005, same formula):
 * (radians(lng), Mercator y), latitude clamped to ±85.0511°. Mercator is conformal: around one
 * place both axes share one scale (1/cos lat), so planar distance orders points like ground distance
 * up to the scale change across the radius (< 1% within 50 km below 60° latitude).
 */
export function mercatorPoint(lat: number, lng: number): [number, number] {
  const phi = rad(Math.min(85.0511, Math.max(-85.0511, lat)));
  return [rad(lng), Math.log(Math.tan(Math.PI / 4 + phi / 2))];
}

const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";
export const GEOHASH_RE = /^[0123456789bcdefghjkmnpqrstuvwxyz]{1,12}$/;

export function geohashEncode(lat: number, lng: number, precision = 9): string {
  let latLo = -90, latHi = 90, lngLo = -180, lngHi = 180;
  let out = "", bit = 0, ch = 0, even = true;
  while (out.length < precision) {
    if (even) {
      const mid = (lngLo + lngHi) / 2;
      if (lng >= mid) { ch = (ch << 1) | 1; lngLo = mid; } else { ch <<= 1; lngHi = mid; }
    } else {
      const mid = (latLo + latHi) / 2;
      if (lat >= mid) { ch = (ch << 1) | 1; latLo = mid; } else { ch <<= 1; latHi = mid; }
    }
    even = !even;
    if (++bit === 5) { out += BASE32[ch]; bit = 0; ch = 0; }
  }
  return out;
}

/** The cell of a geohash: its bounds and center. Throws on characters outside the alphabet. */
export function geohashDecode(hash: string): Bounds & { latitude: number; longitude: number } {
  let latLo = -90, latHi = 90, lngLo = -180, lngHi = 180, even = true;
  for (const c of hash.toLowerCase()) {
    const v = BASE32.indexOf(c);
    if (v < 0) throw new Error(`invalid geohash character '${c}'`);
    for (let b = 4; b >= 0; b--) {
      const on = (v >> b) & 1;
      if (even) { const mid = (lngLo + lngHi) / 2; if (on) lngLo = mid; else lngHi = mid; }
      else { const mid = (latLo + latHi) / 2; if (on) latLo = mid; else latHi = mid; }
      even = !even;
    }
  }
  return { north: latHi, south: latLo, east: lngHi, west: lngLo, latitude: (latLo + latHi) / 2, longitude: (lngLo + lngHi) / 2 };
}

export const GPS_GRACE_M = 100;

export interface PresenceResult {
  verified: boolean;
  distanceFromMission: number;
  withinGeofence: boolean;
  geofenceRadius: number;
  graceApplied: boolean;
}

/**
 * Spec rules: effective radius = geofence + 100 m grace; withinGeofence = d <= geofence;
 * verified = d <= effective radius; graceApplied = verified && !withinGeofence.
 * Accuracy rule (ours): a fix whose reported accuracy is worse than the grace (> 100 m) cannot
 * verify presence — the grace exists to absorb GPS error, so a larger error would make it meaningless.
 */
export function checkPresence(
  mission: { latitude: number; longitude: number; radius: number },
  at: { latitude: number; longitude: number; accuracy: number },
): PresenceResult {
  const d = distanceMeters(mission.latitude, mission.longitude, at.latitude, at.longitude);
  const withinGeofence = d <= mission.radius;
  const verified = d <= mission.radius + GPS_GRACE_M && at.accuracy <= GPS_GRACE_M;
  return {
    verified,
    distanceFromMission: Math.round(d * 100) / 100,
    withinGeofence,
    geofenceRadius: mission.radius,
    graceApplied: verified && !withinGeofence,
  };
}
