// Canonical JSON (RFC 8785 style for the values we hash: objects with keys sorted by UTF-16 code
// units, no whitespace, ES number serialisation, `undefined` members dropped) and its keccak256.
import { keccak256, stringToHex, type Hex } from "viem";

export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: unsupported ${typeof value}`);
  }
}

export const hashCanonical = (value: unknown): Hex => keccak256(stringToHex(canonicalJson(value)));

export interface MissionDetails {
  title: string;
  description: string;
  category: string;
  location: { latitude: number; longitude: number; radius: number } | null;
  metadata: Record<string, unknown>;
  /** Eligibility terms: hashed only when set, so details without them keep the hash they always had. */
  minReputation?: number | null;
  premium?: boolean;
  salt: Hex;
}

/** detailsHash committed on-chain (docs/decisions.md, "Details commitment"). */
export const detailsHash = (d: MissionDetails): Hex =>
  hashCanonical({
    title: d.title,
    description: d.description,
    category: d.category,
    location: d.location,
    metadata: d.metadata,
    minReputation: d.minReputation ?? undefined,
    premium: d.premium ? true : undefined,
    salt: d.salt,
  });

export interface Proof {
  proofType: string;
  proofData: string;
  notes: string;
}

/** proofHash committed on-chain by submitProof. */
export const proofHash = (p: Proof): Hex =>
  hashCanonical({ proofType: p.proofType, proofData: p.proofData, notes: p.notes });
