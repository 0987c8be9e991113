// Issue 38 item 2 ("one chain vocabulary"), the people side: these repositories read the chain views
// only through the typed Ponder tables (api/db/chain.ts), never by the schema's name in raw SQL.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { preparedName } from "../../api/repositories/prepared-name.ts";

const PEOPLE = ["disputes", "guilds", "privacy", "profile", "rating-claims", "vault", "governance"];

describe("chain reads of the people-side repositories", () => {
  for (const name of PEOPLE) {
    it(`${name}.repository.ts names no chain schema in SQL text`, () => {
      const src = fs.readFileSync(new URL(`../../api/repositories/${name}.repository.ts`, import.meta.url), "utf8");
      // The raw-SQL idioms: a quoted schema spliced into a statement, chainQuery, hand-typed snake_case rows.
      expect(src).not.toMatch(/\$\{s\}\.|"\$\{chainSchema|chainQuery|namedQuery/);
    });
  }
  it("named statements differ per views schema and stay short", () => {
    const a = preparedName("guild_member", "ponder_a"), b = preparedName("guild_member", "ponder_b");
    expect(a).not.toBe(b);
    expect(preparedName("guild_member", "ponder_a")).toBe(a);
    expect(a.length).toBeLessThan(63);
  });
});
