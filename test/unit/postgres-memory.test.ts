import { describe, expect, it } from "vitest";
import { memorySettings } from "../../script/lib/postgres.ts";

const GB = 2 ** 30;

describe("embedded PostgreSQL memory", () => {
  it("gives shared_buffers a quarter of the memory and the planner half as cache", () => {
    expect(memorySettings(24 * GB)).toEqual({ sharedBuffersMb: 6144, effectiveCacheSizeMb: 12288 });
    expect(memorySettings(4 * GB)).toEqual({ sharedBuffersMb: 1024, effectiveCacheSizeMb: 2048 });
  });

  it("never goes below PostgreSQL's default 128 MB on a small machine", () => {
    expect(memorySettings(256 * 2 ** 20)).toEqual({ sharedBuffersMb: 128, effectiveCacheSizeMb: 128 });
  });

  it("stops at 8 GB of shared_buffers on a large machine", () => {
    expect(memorySettings(128 * GB)).toEqual({ sharedBuffersMb: 8192, effectiveCacheSizeMb: 65536 });
  });
});
