// The ~20 real cities the benchmark missions cluster around (pure data + helpers, unit-tested).
// weight: share of the missions; spreadKm: sigma of the metro-area gaussian; downtown: share of the
// city's missions in a dense core of sigma downtownKm (a few cities have very dense downtowns, so
// the 500 m nearby query meets both crowded and sparse cells).

export interface City {
  name: string;
  lat: number;
  lng: number;
  weight: number;
  spreadKm: number;
  downtown: number;
  downtownKm: number;
}

export const CITIES: readonly City[] = [
  { name: "Berlin", lat: 52.52, lng: 13.405, weight: 10, spreadKm: 9, downtown: 0.4, downtownKm: 0.8 },
  { name: "London", lat: 51.5074, lng: -0.1278, weight: 10, spreadKm: 12, downtown: 0.4, downtownKm: 0.9 },
  { name: "New York", lat: 40.7128, lng: -74.006, weight: 10, spreadKm: 11, downtown: 0.45, downtownKm: 0.7 },
  { name: "Paris", lat: 48.8566, lng: 2.3522, weight: 8, spreadKm: 8, downtown: 0.35, downtownKm: 0.8 },
  { name: "Tokyo", lat: 35.6762, lng: 139.6503, weight: 8, spreadKm: 14, downtown: 0.3, downtownKm: 1.0 },
  { name: "San Francisco", lat: 37.7749, lng: -122.4194, weight: 6, spreadKm: 7, downtown: 0.2, downtownKm: 1.5 },
  { name: "São Paulo", lat: -23.5505, lng: -46.6333, weight: 5, spreadKm: 13, downtown: 0.1, downtownKm: 2 },
  { name: "Mumbai", lat: 19.076, lng: 72.8777, weight: 5, spreadKm: 10, downtown: 0.1, downtownKm: 2 },
  { name: "Lagos", lat: 6.5244, lng: 3.3792, weight: 4, spreadKm: 10, downtown: 0.1, downtownKm: 2 },
  { name: "Toronto", lat: 43.6532, lng: -79.3832, weight: 4, spreadKm: 9, downtown: 0.1, downtownKm: 2 },
  { name: "Mexico City", lat: 19.4326, lng: -99.1332, weight: 4, spreadKm: 11, downtown: 0.1, downtownKm: 2 },
  { name: "Madrid", lat: 40.4168, lng: -3.7038, weight: 4, spreadKm: 7, downtown: 0.1, downtownKm: 2 },
  { name: "Amsterdam", lat: 52.3676, lng: 4.9041, weight: 3, spreadKm: 5, downtown: 0.1, downtownKm: 2 },
  { name: "Istanbul", lat: 41.0082, lng: 28.9784, weight: 3, spreadKm: 12, downtown: 0.1, downtownKm: 2 },
  { name: "Seoul", lat: 37.5665, lng: 126.978, weight: 3, spreadKm: 10, downtown: 0.1, downtownKm: 2 },
  { name: "Singapore", lat: 1.3521, lng: 103.8198, weight: 3, spreadKm: 8, downtown: 0.1, downtownKm: 2 },
  { name: "Sydney", lat: -33.8688, lng: 151.2093, weight: 3, spreadKm: 12, downtown: 0.1, downtownKm: 2 },
  { name: "Cairo", lat: 30.0444, lng: 31.2357, weight: 2, spreadKm: 9, downtown: 0.1, downtownKm: 2 },
  { name: "Buenos Aires", lat: -34.6037, lng: -58.3816, weight: 2, spreadKm: 10, downtown: 0.1, downtownKm: 2 },
  { name: "Chicago", lat: 41.8781, lng: -87.6298, weight: 3, spreadKm: 11, downtown: 0.1, downtownKm: 2 },
];

/** Upper bounds of each city's share in [0, 1] (for width_bucket in SQL); the last is exactly 1. */
export function cumulativeWeights(cities: readonly City[] = CITIES): number[] {
  const total = cities.reduce((s, c) => s + c.weight, 0);
  let acc = 0;
  return cities.map((c, i) => (i === cities.length - 1 ? 1 : (acc += c.weight) / total));
}

const KM_PER_DEG = 111.32;

/**
 * The point of one mission: city k (1-based, as SQL arrays), in the downtown or the metro area,
 * offset by two standard normal draws (z1 north, z2 east). The SQL generator computes the same
 * formula; this copy is what the unit test checks.
 */
export function clusterPoint(city: City, downtown: boolean, z1: number, z2: number): { lat: number; lng: number } {
  const sigma = downtown ? city.downtownKm : city.spreadKm;
  return {
    lat: city.lat + (z1 * sigma) / KM_PER_DEG,
    lng: city.lng + (z2 * sigma) / (KM_PER_DEG * Math.cos((city.lat * Math.PI) / 180)),
  };
}

/** Great-circle distance in meters (haversine), for tests and sanity checks. */
export function distanceMeters(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const R = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/** SQL float8[] literal. */
export const sqlArray = (xs: readonly number[]) => `(ARRAY[${xs.map((x) => x.toString()).join(",")}]::float8[])`;
