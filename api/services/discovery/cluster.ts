// Map clusters for GET /missions/nearby: grid clustering in Web Mercator pixel space (cells of
// CLUSTER_PX pixels at the view's zoom), the way map libraries cluster markers. Pure.
import type { Bounds } from "./geo.ts";

export const CLUSTER_PX = 60;
export const MAX_ZOOM = 20;
const TILE = 256;

const mercX = (lng: number) => lng / 360 + 0.5;
const mercY = (lat: number) => {
  const s = Math.sin((Math.max(-85.05112878, Math.min(85.05112878, lat)) * Math.PI) / 180);
  return 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
};

/** The zoom at which a circle of `radius` meters fills a ~512 px wide view. */
export function zoomForRadius(latitude: number, radius: number): number {
  const metersPerPixelAtZ0 = 156_543.033_92 * Math.cos((latitude * Math.PI) / 180);
  const z = Math.log2((metersPerPixelAtZ0 * 512) / (2 * Math.max(radius, 1)));
  return Math.max(0, Math.min(MAX_ZOOM, Math.floor(z)));
}

export interface Point {
  latitude: number;
  longitude: number;
  /** Missions at this exact position (default 1): the map aggregates stacked positions in SQL. */
  count?: number;
}
export interface Cluster {
  latitude: number;
  longitude: number;
  count: number;
  expansionZoom: number;
  bounds: Bounds;
}

const cellSize = (zoom: number) => CLUSTER_PX / (TILE * 2 ** zoom);

/**
 * Groups of >= 2 points sharing a cell at `zoom`; expansionZoom = first zoom where the group splits (MAX_ZOOM if never).
 * Runs per map request over every mission in the radius, given as distinct positions with counts
 * (the privacy view shows every non-party a geohash-6 cell centre, so a city is a few hundred
 * positions): Mercator coordinates are computed once per position and the split search compares
 * integer cells of the group's distinct positions only (a stack never splits).
 */
export function clusterPoints(points: Point[], zoom: number): Cluster[] {
  const size = cellSize(zoom);
  const groups = new Map<string, { pts: Point[]; xy: Map<string, [number, number]> }>();
  for (const p of points) {
    const x = mercX(p.longitude);
    const y = mercY(p.latitude);
    const k = `${Math.floor(x / size)}:${Math.floor(y / size)}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { pts: [], xy: new Map() }));
    g.pts.push(p);
    g.xy.set(`${p.latitude},${p.longitude}`, [x, y]);
  }
  const out: Cluster[] = [];
  for (const { pts: g, xy } of groups.values()) {
    if (g.length < 2 && (g[0]?.count ?? 1) < 2) continue;
    let expansionZoom = MAX_ZOOM;
    const distinct = [...xy.values()];
    if (distinct.length > 1) {
      for (let z = zoom + 1; z <= MAX_ZOOM; z++) {
        const sz = cellSize(z);
        const [x0, y0] = distinct[0]!;
        const cx = Math.floor(x0 / sz);
        const cy = Math.floor(y0 / sz);
        if (distinct.some(([x, y]) => Math.floor(x / sz) !== cx || Math.floor(y / sz) !== cy)) {
          expansionZoom = z;
          break;
        }
      }
    }
    let latSum = 0, lngSum = 0, n = 0;
    let north = -Infinity, south = Infinity, east = -Infinity, west = Infinity;
    for (const p of g) {
      const c = p.count ?? 1;
      n += c;
      latSum += p.latitude * c;
      lngSum += p.longitude * c;
      if (p.latitude > north) north = p.latitude;
      if (p.latitude < south) south = p.latitude;
      if (p.longitude > east) east = p.longitude;
      if (p.longitude < west) west = p.longitude;
    }
    out.push({ latitude: latSum / n, longitude: lngSum / n, count: n, expansionZoom, bounds: { north, south, east, west } });
  }
  return out.sort((a, b) => b.count - a.count);
}
