import { describe, expect, it } from "vitest";
import { boundingBox, checkPresence, distanceMeters, geohashDecode, geohashEncode, mercatorPoint } from "../../api/services/discovery/geo.ts";
import { isMissionParty, viewLocation } from "../../api/services/discovery/location-privacy.ts";

// A point `m` meters north of (lat, lng).
const north = (lat: number, m: number) => lat + (m / 6_371_008.8) * (180 / Math.PI);

describe("distance", () => {
  it("haversine matches known distances", () => {
    expect(distanceMeters(52.520008, 13.404954, 52.520008, 13.404954)).toBe(0);
    // Berlin -> Paris ~ 878 km
    expect(distanceMeters(52.52, 13.405, 48.8566, 2.3522) / 1000).toBeCloseTo(877.5, 0);
    expect(distanceMeters(0, 0, north(0, 120), 0)).toBeCloseTo(120, 6);
  });
  it("bounding box contains the circle", () => {
    const b = boundingBox(52.52, 13.4, 5000);
    expect(distanceMeters(52.52, 13.4, b.north, 13.4)).toBeCloseTo(5000, 3);
    expect(distanceMeters(52.52, 13.4, 52.52, b.east)).toBeGreaterThanOrEqual(4999);
    expect(b.south).toBeLessThan(52.52);
    expect(b.west).toBeLessThan(13.4);
  });
});

describe("geohash", () => {
  it("encodes the reference points", () => {
    expect(geohashEncode(57.64911, 10.40744, 11)).toBe("u4pruydqqvj");
    expect(geohashEncode(42.6, -5.6, 5)).toBe("ezs42");
  });
  it("decodes to a cell containing the point", () => {
    const c = geohashDecode("ezs42");
    expect(c.latitude).toBeCloseTo(42.605, 2);
    expect(c.longitude).toBeCloseTo(-5.603, 2);
    expect(c.south).toBeLessThanOrEqual(42.6);
    expect(c.north).toBeGreaterThanOrEqual(42.6);
    expect(() => geohashDecode("abc")).toThrow(/invalid geohash/);
  });
  it("a prefix covers every point of its cells", () => {
    const h = geohashEncode(52.520008, 13.404954, 9);
    expect(h.startsWith(geohashEncode(52.520008, 13.404954, 4))).toBe(true);
  });
});

describe("presence (spec rules)", () => {
  const mission = { latitude: 52.52, longitude: 13.4, radius: 50 };
  const at = (m: number, accuracy = 10) => ({ latitude: north(52.52, m), longitude: 13.4, accuracy });
  it("spec example: geofence 50 m, 120 m away -> within false, verified true, grace true", () => {
    const r = checkPresence(mission, at(120));
    expect(r).toMatchObject({ withinGeofence: false, verified: true, graceApplied: true, geofenceRadius: 50 });
    expect(r.distanceFromMission).toBeCloseTo(120, 1);
  });
  it("inside the geofence: no grace", () => {
    expect(checkPresence(mission, at(40))).toMatchObject({ withinGeofence: true, verified: true, graceApplied: false });
  });
  it("boundaries: exactly radius and radius + 100 count; beyond does not", () => {
    expect(checkPresence(mission, at(49.99))).toMatchObject({ withinGeofence: true });
    expect(checkPresence(mission, at(149.9))).toMatchObject({ verified: true, graceApplied: true });
    expect(checkPresence(mission, at(150.2))).toMatchObject({ verified: false, withinGeofence: false, graceApplied: false });
  });
  it("accuracy rule: a fix worse than 100 m never verifies", () => {
    expect(checkPresence(mission, at(10, 100))).toMatchObject({ verified: true });
    expect(checkPresence(mission, at(10, 100.5))).toMatchObject({ verified: false, withinGeofence: true, graceApplied: false });
  });
});

describe("location privacy", () => {
  const poster = "0xAbC0000000000000000000000000000000000001";
  const performer = "0xabc0000000000000000000000000000000000002";
  it("parties are the poster and the performer (case-insensitive)", () => {
    expect(isMissionParty(poster.toLowerCase(), poster, null)).toBe(true);
    expect(isMissionParty(performer.toUpperCase().replace("0X", "0x"), poster, performer)).toBe(true);
    expect(isMissionParty("0xabc0000000000000000000000000000000000003", poster, performer)).toBe(false);
    expect(isMissionParty(undefined, poster, performer)).toBe(false);
  });
  it("exact for parties; the geohash-6 cell center for everyone else", () => {
    expect(viewLocation(52.520008, 13.404954, true)).toEqual({ latitude: 52.520008, longitude: 13.404954, geohash: "u33dc0cpn", precision: 0 });
    const p = viewLocation(52.520008, 13.404954, false);
    expect(p).toEqual({ latitude: 52.517395, longitude: 13.408813, geohash: "u33dc0", precision: 2 });
    // Every point of the cell gives the same public answer: nothing finer leaks.
    expect(viewLocation(52.5191, 13.4055, false)).toEqual(p);
    expect(distanceMeters(52.520008, 13.404954, p.latitude, p.longitude)).toBeLessThan(800);
  });
});

describe("WebSocket area matching", async () => {
  const { areaMatches } = await import("../../api/services/discovery/realtime.ts");
  const exact = geohashEncode(52.520008, 13.404954, 12); // u33dc0cpn...
  it("a prefix covers every mission inside it", () => {
    expect(areaMatches("u33", exact, false)).toBe(true);
    expect(areaMatches("u33dc0", exact, false)).toBe(true);
    expect(areaMatches("u34", exact, false)).toBe(false);
  });
  it("strangers match on the public geohash-6 cell only; parties on the exact hash", () => {
    expect(areaMatches("u33dc0cpn", exact, true)).toBe(true);
    expect(areaMatches("u33dc0zzz", exact, true)).toBe(false);
    // Any finer subscription inside the public cell matches: it cannot locate the mission further.
    expect(areaMatches("u33dc0zzz", exact, false)).toBe(true);
    expect(areaMatches("u33dc1", exact, false)).toBe(false);
  });
});

describe("mercatorPoint (the nearby index's planar point)", () => {
  const planar = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  it("orders points around a place like ground distance, within 1% across 50 km", () => {
    for (const [lat, lng] of [[52.52, 13.405], [-33.87, 151.21], [1.35, 103.82], [59.9, 10.7]] as const) {
      const q = mercatorPoint(lat, lng);
      const scale = Math.cos((lat * Math.PI) / 180) * 6_371_008.8; // planar unit -> meters at the centre
      for (let i = 0; i < 200; i++) {
        const d = 50 + ((i * 7919) % 50_000);
        const t = (i * 2.399) % (2 * Math.PI);
        const p = { lat: lat + ((d * Math.cos(t)) / 6_371_008.8) * (180 / Math.PI), lng: lng + ((d * Math.sin(t)) / (6_371_008.8 * Math.cos((lat * Math.PI) / 180))) * (180 / Math.PI) };
        const ground = distanceMeters(lat, lng, p.lat, p.lng);
        expect(Math.abs(planar(q, mercatorPoint(p.lat, p.lng)) * scale - ground) / ground).toBeLessThan(0.01);
      }
    }
  });
  it("is monotonic in both axes and clamps at the projection's edge", () => {
    expect(mercatorPoint(10, 5)[0]).toBeLessThan(mercatorPoint(10, 6)[0]);
    expect(mercatorPoint(10, 5)[1]).toBeLessThan(mercatorPoint(11, 5)[1]);
    expect(mercatorPoint(89.9, 0)).toEqual(mercatorPoint(85.0511, 0));
    expect(Number.isFinite(mercatorPoint(-90, 0)[1])).toBe(true);
  });
});
