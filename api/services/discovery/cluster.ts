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
}
export interface Cluster {
  latitude: number;
  longitude: number;
  count: number;
  expansionZoom: number;
  bounds: Bounds;
}

const cellKey = (p: Point, zoom: number) => {
  const size = CLUSTER_PX / (TILE * 2 ** zoom);
  return `${Math.floor(mercX(p.longitude) / size)}:${Math.floor(mercY(p.latitude) / size)}`;
};

/** Groups of >= 2 points sharing a cell at `zoom`; expansionZoom = first zoom where the group splits (MAX_ZOOM if never). */
export function clusterPoints(points: Point[], zoom: number): Cluster[] {
  const groups = new Map<string, Point[]>();
  for (const p of points) {
    const k = cellKey(p, zoom);
    const g = groups.get(k);
    if (g) g.push(p);
    else groups.set(k, [p]);
  }
  const out: Cluster[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    let expansionZoom = MAX_ZOOM;
    for (let z = zoom + 1; z <= MAX_ZOOM; z++) {
      const first = cellKey(g[0]!, z);
      if (g.some((p) => cellKey(p, z) !== first)) {
        expansionZoom = z;
        break;
      }
    }
    const lats = g.map((p) => p.latitude);
    const lngs = g.map((p) => p.longitude);
    out.push({
      latitude: lats.reduce((a, b) => a + b, 0) / g.length,
      longitude: lngs.reduce((a, b) => a + b, 0) / g.length,
      count: g.length,
      expansionZoom,
      bounds: { north: Math.max(...lats), south: Math.min(...lats), east: Math.max(...lngs), west: Math.min(...lngs) },
    });
  }
  return out.sort((a, b) => b.count - a.count);
}
