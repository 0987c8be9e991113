import { describe, expect, it } from "vitest";
import { clusterPoints, MAX_ZOOM, zoomForRadius } from "../../api/services/discovery/cluster.ts";

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
