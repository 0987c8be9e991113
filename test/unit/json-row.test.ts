// json-row.ts (bench B1's mission read): a select's fields as one JSON column. The SQL is drizzle's own
// rendering; the decoder is run on the values PostgreSQL's json_build_array sends (numeric as text, as
// the statement asks). The e2e mission and privacy tests compare whole response bodies over a database.
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { chainTables } from "../../api/db/chain.ts";
import { missionDetails, users, vaults } from "../../api/db/schema.ts";
import { jsonRow } from "../../api/repositories/json-row.ts";

const { missions: m } = chainTables("chain_x");
const fields = {
  id: m.id, onChainId: m.onChainId, reward: m.reward, refundAmount: m.refundAmount, poster: m.poster,
  title: missionDetails.title, latitude: missionDetails.latitude, minReputation: missionDetails.minReputation,
  metadata: missionDetails.metadata, userId: users.id, permissions: vaults.permissions,
  premium: sql<boolean>`coalesce(${missionDetails.premium}, false)`,
  doubled: sql<number>`2`.mapWith((v: unknown) => Number(v) * 2),
};
type Row = {
  id: string; onChainId: bigint; reward: bigint; refundAmount: bigint | null; poster: string; title: string | null; latitude: number | null;
  minReputation: number | null; metadata: unknown; userId: string | null; permissions: unknown; premium: boolean; doubled: number;
};
const expr = jsonRow<Row>(fields);
const decode = (values: unknown[]) => (expr as unknown as { decoder: { mapFromDriverValue(v: unknown): Row } }).decoder.mapFromDriverValue(values);

describe("jsonRow", () => {
  it("selects the fields in order in one json_build_array, numeric(78) columns as text", () => {
    const { sql: text } = new PgDialect().sqlToQuery(expr);
    expect(text.startsWith("json_build_array(")).toBe(true);
    expect(text).toContain(`"missions"."on_chain_id"::text, "missions"."reward"::text, "missions"."refund_amount"::text, "missions"."poster"`);
    expect(text).not.toContain(`"latitude"::text`);
    expect(text.indexOf(`"min_reputation"`)).toBeLessThan(text.indexOf(`"metadata"`));
  });

  it("decodes each value with its field's own mapping, in the fields' key order", () => {
    const big = (2n ** 255n + 7n).toString();
    const row = decode(["m-1", "42", big, null, "0xabc", "Title", 37.800554014263014, 3, { tags: ["a"] }, "u-1", { profileVisibility: { displayName: "private" } }, true, 21]);
    expect(Object.keys(row)).toEqual(Object.keys(fields));
    expect(row).toEqual({
      id: "m-1", onChainId: 42n, reward: 2n ** 255n + 7n, refundAmount: null, poster: "0xabc", title: "Title", latitude: 37.800554014263014,
      minReputation: 3, metadata: { tags: ["a"] }, userId: "u-1", permissions: { profileVisibility: { displayName: "private" } }, premium: true, doubled: 42,
    });
  });

  it("keeps a missing joined row's fields null (not undefined) and booleans as sent", () => {
    const row = decode(["m-2", "1", "0", null, "0xdef", null, null, null, null, null, null, false, 1]);
    expect(row.title).toBeNull();
    expect(row.metadata).toBeNull();
    expect(row.permissions).toBeNull();
    expect(row.premium).toBe(false);
    expect(row.reward).toBe(0n);
  });
});
