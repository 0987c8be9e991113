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
 * A cell's number: column × CELL_SPAN + row. Mercator coordinates of valid latitudes and longitudes
 * lie in [0, 1], so a column or row is at most TILE × 2^MAX_ZOOM / CLUSTER_PX ≈ 4.5M < CELL_SPAN, and
 * the number is exact (< 2^48).
 */
const CELL_SPAN = 2 ** 24;

/**
 * Groups of >= 2 points sharing a cell at `zoom`; expansionZoom = first zoom where the group splits (MAX_ZOOM if never).
 * Runs per map request over every position in the radius (distinct positions with counts: the
 * privacy view shows every non-party a geohash-6 cell centre, so a city is a few hundred positions).
 * Mercator coordinates are computed once per point, cells are numbers (no string per point), a group
 * is a list of point indexes in input order (its sums add in that order), and the split search
 * compares cells of the group's points (equal positions have equal cells, so repeats change nothing).
 */
export function clusterPoints(points: Point[], zoom: number): Cluster[] {
  const size = cellSize(zoom);
  const n = points.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const next = new Int32Array(n); // the group's next point (-1: last)
  const groupOf = new Map<number, number>();
  const first: number[] = [];
  const last: number[] = [];
  const members: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const x = mercX(p.longitude);
    const y = mercY(p.latitude);
    xs[i] = x;
    ys[i] = y;
    next[i] = -1;
    const k = Math.floor(x / size) * CELL_SPAN + Math.floor(y / size);
    const g = groupOf.get(k);
    if (g === undefined) {
      groupOf.set(k, first.length);
      first.push(i);
      last.push(i);
      members.push(1);
    } else {
      next[last[g]!] = i;
      last[g] = i;
      members[g]!++;
    }
  }
  const out: Cluster[] = [];
  for (let g = 0; g < first.length; g++) {
    const f = first[g]!;
    if (members[g]! < 2 && (points[f]!.count ?? 1) < 2) continue;
    let expansionZoom = MAX_ZOOM;
    const x0 = xs[f]!, y0 = ys[f]!;
    let spread = false;
    for (let i = next[f]!; i >= 0 && !spread; i = next[i]!) spread = xs[i] !== x0 || ys[i] !== y0;
    if (spread) {
      for (let z = zoom + 1; z <= MAX_ZOOM && expansionZoom === MAX_ZOOM; z++) {
        const sz = cellSize(z);
        const cx = Math.floor(x0 / sz);
        const cy = Math.floor(y0 / sz);
        for (let i = next[f]!; i >= 0; i = next[i]!) {
          if (Math.floor(xs[i]! / sz) !== cx || Math.floor(ys[i]! / sz) !== cy) {
            expansionZoom = z;
            break;
          }
        }
      }
    }
    let latSum = 0, lngSum = 0, total = 0;
    let north = -Infinity, south = Infinity, east = -Infinity, west = Infinity;
    for (let i = f; i >= 0; i = next[i]!) {
      const p = points[i]!;
      const c = p.count ?? 1;
      total += c;
      latSum += p.latitude * c;
      lngSum += p.longitude * c;
      if (p.latitude > north) north = p.latitude;
      if (p.latitude < south) south = p.latitude;
      if (p.longitude > east) east = p.longitude;
      if (p.longitude < west) west = p.longitude;
    }
    out.push({ latitude: latSum / total, longitude: lngSum / total, count: total, expansionZoom, bounds: { north, south, east, west } });
  }
  return out.sort((a, b) => b.count - a.count);
}
