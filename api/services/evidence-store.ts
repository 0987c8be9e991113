// Dispute evidence files: type sniffed from the bytes (never the client's Content-Type), stored
// content-addressed by sha256 (the same 32 bytes go on-chain). Local disk by default; any other
// backend (S3-compatible) implements EvidenceStore. Keys are validated hex, never client paths.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

export const EVIDENCE_MAX_BYTES = 5 * 1024 * 1024;
const HASH_RE = /^0x[0-9a-f]{64}$/;

export interface EvidenceStore {
  /** Stores `bytes` under `hash` (idempotent: the same bytes give the same key). */
  put(hash: string, bytes: Uint8Array): Promise<void>;
  /** A web stream of the stored bytes, or null when missing. */
  get(hash: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes the file of `hash` (nothing when missing). */
  delete(hash: string): Promise<void>;
}

export const evidenceHash = (bytes: Uint8Array) => `0x${createHash("sha256").update(bytes).digest("hex")}`;

export function assertHashKey(hash: string): string {
  if (!HASH_RE.test(hash)) throw new Error("evidence key must be 0x + 64 lowercase hex");
  return hash;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);

/** The evidence's MIME type from its magic bytes; null when not an accepted type. */
export function sniffEvidenceType(b: Uint8Array): string | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf"; // %PDF-
  if (b.length === 0) return null;
  // Text: valid UTF-8 without control bytes other than tab/CR/LF. JSON if it parses as JSON.
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    return null;
  }
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return null;
  try {
    JSON.parse(text);
    return "application/json";
  } catch {
    return "text/plain";
  }
}

/** Files under `dir/ab/<hash without 0x>`; the path is built only from a validated hash. */
export function localDiskEvidenceStore(dir: string): EvidenceStore {
  const file = (hash: string) => {
    const h = assertHashKey(hash).slice(2);
    return path.join(path.resolve(dir), h.slice(0, 2), h);
  };
  return {
    async put(hash, bytes) {
      const target = file(hash);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, target); // atomic: a reader never sees half a file
    },
    async get(hash) {
      const target = file(hash);
      try {
        await fs.access(target);
      } catch {
        return null;
      }
      return Readable.toWeb(createReadStream(target)) as ReadableStream<Uint8Array>;
    },
    async delete(hash) {
      await fs.rm(file(hash), { force: true });
    },
  };
}
