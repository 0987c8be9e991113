// Evidence rules of the disputes area: type from magic bytes, content addressing, no path escape.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { statsView } from "../../api/services/dispute-view.ts";
import { assertHashKey, evidenceHash, localDiskEvidenceStore, sniffEvidenceType } from "../../api/services/evidence-store.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

describe("sniffEvidenceType", () => {
  it("accepts PNG, JPEG, PDF, JSON and plain text by their content", () => {
    expect(sniffEvidenceType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffEvidenceType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffEvidenceType(text("%PDF-1.7\n"))).toBe("application/pdf");
    expect(sniffEvidenceType(text('{"a":1}'))).toBe("application/json");
    expect(sniffEvidenceType(text("hello\tworld\r\nünïcode"))).toBe("text/plain");
  });
  it("rejects other binaries, control bytes, invalid UTF-8 and empty files", () => {
    expect(sniffEvidenceType(text("GIF89a"))).toBe("text/plain"); // ASCII only: just text
    expect(sniffEvidenceType(bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0xff))).toBeNull();
    expect(sniffEvidenceType(bytes(0x50, 0x4b, 0x03, 0x04, 0x00))).toBeNull(); // zip
    expect(sniffEvidenceType(bytes(0xc3, 0x28))).toBeNull();
    expect(sniffEvidenceType(bytes())).toBeNull();
    expect(sniffEvidenceType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull(); // truncated PNG signature, not text
  });
});

describe("local evidence store", () => {
  it("stores by sha256 and reads back; keys must be 0x + 64 lowercase hex", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evidence-"));
    const store = localDiskEvidenceStore(dir);
    const data = text("proof");
    const hash = evidenceHash(data);
    expect(hash).toBe("0x" + createHash("sha256").update("proof").digest("hex"));
    await store.put(hash, data);
    await store.put(hash, data); // idempotent
    const body = await store.get(hash);
    expect(new Uint8Array(await new Response(body).arrayBuffer())).toEqual(data);
    expect(await store.get("0x" + "0".repeat(64))).toBeNull();
    for (const bad of ["../../etc/passwd", "0x" + "A".repeat(64), "0x" + "0".repeat(63), "0x../" + "0".repeat(60)]) {
      expect(() => assertHashKey(bad)).toThrow();
      await expect(store.get(bad)).rejects.toThrow();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("statsView", () => {
  it("winRate is the percent of decided disputes won (2 decimals), 0 without any", () => {
    const row = { poster: 3, performer: 2, resolver: 0, initiator: 1, wins: 1, losses: 1, splits: 1 };
    expect(statsView(row)).toEqual({ totalAsPoster: 3, totalAsPerformer: 2, totalAsResolver: 0, totalAsInitiator: 1, wins: 1, losses: 1, splits: 1, winRate: 33.33 });
    expect(statsView({ ...row, wins: 0, losses: 0, splits: 0 }).winRate).toBe(0);
  });
});
