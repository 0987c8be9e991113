import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterPoints, MAX_ZOOM, zoomForRadius, type Point } from "../../api/services/discovery/cluster.ts";

describe("clusters", () => {
  it("zoom follows the radius", () => {
    expect(zoomForRadius(52.5, 5000)).toBe(12); // 10 km across 512 px: ~19.5 m/px
    expect(zoomForRadius(52.5, 50_000)).toBeLessThan(zoomForRadius(52.5, 500));
  });
  it("groups close points, leaves lone points out, with bounds and expansion zoom", () => {
    const close = [
      { latitude: 52.52, longitude: 13.4 },
      { latitude: 52.5201, longitude: 13.4001 },
      { latitude: 52.5202, longitude: 13.4 },
    ];
    const far = { latitude: 52.6, longitude: 13.6 };
    const cs = clusterPoints([...close, far], 12);
    expect(cs).toHaveLength(1);
    const c = cs[0]!;
    expect(c.count).toBe(3);
    expect(c.bounds).toEqual({ north: 52.5202, south: 52.52, east: 13.4001, west: 13.4 });
    expect(c.latitude).toBeCloseTo(52.5201, 6);
    expect(c.expansionZoom).toBeGreaterThan(12);
    expect(c.expansionZoom).toBeLessThanOrEqual(MAX_ZOOM);
    // At the expansion zoom the group really splits, one zoom earlier it does not.
    expect(clusterPoints(close, c.expansionZoom).every((x) => x.count < 3)).toBe(true);
    expect(clusterPoints(close, c.expansionZoom - 1)[0]?.count).toBe(3);
  });
  it("identical points never split: expansion zoom is the max", () => {
    const p = { latitude: 1, longitude: 1 };
    expect(clusterPoints([p, p], 3)[0]).toMatchObject({ count: 2, expansionZoom: MAX_ZOOM });
  });
});

/** The first implementation (string cell keys, a Map of distinct positions per group): the reference. */
function reference(points: Point[], zoom: number) {
  const merc = (p: Point) => {
    const s = Math.sin((Math.max(-85.05112878, Math.min(85.05112878, p.latitude)) * Math.PI) / 180);
    return [p.longitude / 360 + 0.5, 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI] as const;
  };
  const cell = (z: number) => 60 / (256 * 2 ** z);
  const groups = new Map<string, { pts: Point[]; xy: Map<string, readonly [number, number]> }>();
  for (const p of points) {
    const [x, y] = merc(p);
    const k = `${Math.floor(x / cell(zoom))}:${Math.floor(y / cell(zoom))}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { pts: [], xy: new Map() }));
    g.pts.push(p);
    g.xy.set(`${p.latitude},${p.longitude}`, [x, y]);
  }
  const out = [];
  for (const { pts, xy } of groups.values()) {
    if (pts.length < 2 && (pts[0]?.count ?? 1) < 2) continue;
    let expansionZoom = MAX_ZOOM;
    const distinct = [...xy.values()];
    if (distinct.length > 1) {
      for (let z = zoom + 1; z <= MAX_ZOOM; z++) {
        const [x0, y0] = distinct[0]!;
        if (distinct.some(([x, y]) => Math.floor(x / cell(z)) !== Math.floor(x0 / cell(z)) || Math.floor(y / cell(z)) !== Math.floor(y0 / cell(z)))) {
          expansionZoom = z;
          break;
        }
      }
    }
    let latSum = 0, lngSum = 0, n = 0;
    let north = -Infinity, south = Infinity, east = -Infinity, west = Infinity;
    for (const p of pts) {
      const c = p.count ?? 1;
      n += c;
      latSum += p.latitude * c;
      lngSum += p.longitude * c;
      north = Math.max(north, p.latitude);
      south = Math.min(south, p.latitude);
      east = Math.max(east, p.longitude);
      west = Math.min(west, p.longitude);
    }
    out.push({ latitude: latSum / n, longitude: lngSum / n, count: n, expansionZoom, bounds: { north, south, east, west } });
  }
  return out.sort((a, b) => b.count - a.count);
}

describe("clusters = the reference, to the last bit and in the same order", () => {
  // Positions as the map gives them: neighbourhood centres (6 decimals) around a few centres, some
  // repeated (stacks), some exact points, counts 1..n; the antimeridian and Mercator's clamp included.
  const position = fc.record({
    centre: fc.constantFrom(
      { lat: 52.52, lng: 13.405 }, { lat: 40.7128, lng: -74.006 }, { lat: -33.86, lng: 151.2 },
      { lat: 0, lng: 179.99 }, { lat: 0, lng: -179.99 }, { lat: 86, lng: 0 }, { lat: -89.9, lng: 45 },
    ),
    dLat: fc.integer({ min: -60_000, max: 60_000 }),
    dLng: fc.integer({ min: -90_000, max: 90_000 }),
    count: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
  }).map(({ centre: { lat, lng }, dLat, dLng, count }): Point => ({
    latitude: Math.max(-90, Math.min(90, Math.round((lat + dLat / 1e6) * 1e6) / 1e6)),
    longitude: Math.max(-180, Math.min(180, Math.round((lng + dLng / 1e6) * 1e6) / 1e6)),
    ...(count === undefined ? {} : { count }),
  }));
  it("for random positions, stacks and zooms", () => {
    fc.assert(
      fc.property(
        fc.array(position, { maxLength: 300 }).chain((ps) => fc.tuple(fc.constant(ps), fc.array(fc.nat(Math.max(0, ps.length - 1)), { maxLength: 40 }))),
        fc.integer({ min: 0, max: MAX_ZOOM }),
        ([ps, repeats], zoom) => {
          // Repeated positions: the same point again (a stack given twice never splits).
          const points = [...ps, ...repeats.filter((i) => i < ps.length).map((i) => ({ ...ps[i]! }))];
          expect(JSON.stringify(clusterPoints(points, zoom))).toBe(JSON.stringify(reference(points, zoom)));
        },
      ),
      { numRuns: 400 },
    );
  });
});
