// api.users.name_visibility (migration 0032) is the displayName visibility of the user's vault
// permissions, kept by a trigger on api.vaults whoever writes the vault: the single mission's view
// (api/repositories/mission-view.sql.ts) reads each party's name through it without joining the vault.
// In the real PostgreSQL after every migration, each write the API makes (first sign-in's insert, a
// PATCH's update, a vault deletion's upsert) and an operator's delete leave it equal to what
// mergePermissions reads: the stored value (a JSON null too), else "public". Each case is rolled back.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratedDatabase } from "./migrated-db.ts";
import { DEFAULT_VAULT_PERMISSIONS } from "../../api/repositories/users.repository.ts";

const db = migratedDatabase();
const rolledBack = db.rolledBack;

const withName = (displayName: unknown) => ({ ...DEFAULT_VAULT_PERMISSIONS, profileVisibility: { ...DEFAULT_VAULT_PERMISSIONS.profileVisibility, displayName } });

async function newUser(c: pg.PoolClient): Promise<string> {
  const address = `0x${randomUUID().replaceAll("-", "").padEnd(40, "0")}`;
  return (await c.query<{ id: string }>(`INSERT INTO api.users (evm_address) VALUES ($1) RETURNING id`, [address])).rows[0]!.id;
}

const visibility = async (c: pg.PoolClient, id: string) =>
  (await c.query<{ v: unknown }>(`SELECT name_visibility AS v FROM api.users WHERE id = $1`, [id])).rows[0]!.v;

describe("api.users.name_visibility follows the vault", () => {
  it("is public for a user without a vault, and the vault's value after each write", async () => {
    await rolledBack(async (c) => {
      const id = await newUser(c);
      expect(await visibility(c, id)).toBe("public");
      // First sign-in: the defaults (users.repository.ts upsertOnSignIn).
      await c.query(`INSERT INTO api.vaults (user_id, permissions) VALUES ($1, $2::jsonb)`, [id, JSON.stringify(DEFAULT_VAULT_PERMISSIONS)]);
      expect(await visibility(c, id)).toBe("public");
      // PATCH /vault/permissions (vault.repository.ts updatePermissions).
      for (const v of ["private", "guilds_only", "public", "private"]) {
        await c.query(`UPDATE api.vaults SET permissions = $2::jsonb WHERE user_id = $1`, [id, JSON.stringify(withName(v))]);
        expect(await visibility(c, id), v).toBe(v);
      }
      // A stored JSON null stays null (no rule shows it); a missing key means the default.
      await c.query(`UPDATE api.vaults SET permissions = $2::jsonb WHERE user_id = $1`, [id, JSON.stringify(withName(null))]);
      expect(await visibility(c, id)).toBeNull();
      await c.query(`UPDATE api.vaults SET permissions = '{"profileVisibility": {}}'::jsonb WHERE user_id = $1`, [id]);
      expect(await visibility(c, id)).toBe("public");
      // A write of another column leaves it.
      await c.query(`UPDATE api.vaults SET permissions = $2::jsonb WHERE user_id = $1`, [id, JSON.stringify(withName("guilds_only"))]);
      await c.query(`UPDATE api.vaults SET last_synced_at = now() WHERE user_id = $1`, [id]);
      expect(await visibility(c, id)).toBe("guilds_only");
      // A vault deletion's reset (vault.repository.ts: an upsert of the fresh permissions).
      await c.query(
        `INSERT INTO api.vaults (user_id, permissions) VALUES ($1, $2::jsonb)
         ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`,
        [id, JSON.stringify(DEFAULT_VAULT_PERMISSIONS)],
      );
      expect(await visibility(c, id)).toBe("public");
      // An operator deleting the row: no vault, the defaults.
      await c.query(`UPDATE api.vaults SET permissions = $2::jsonb WHERE user_id = $1`, [id, JSON.stringify(withName("private"))]);
      await c.query(`DELETE FROM api.vaults WHERE user_id = $1`, [id]);
      expect(await visibility(c, id)).toBe("public");
    });
  });

  it("a user's deletion takes its vault with it", async () => {
    await rolledBack(async (c) => {
      const id = await newUser(c);
      await c.query(`INSERT INTO api.vaults (user_id, permissions) VALUES ($1, $2::jsonb)`, [id, JSON.stringify(withName("private"))]);
      expect(await visibility(c, id)).toBe("private");
      await c.query(`DELETE FROM api.users WHERE id = $1`, [id]);
      expect((await c.query(`SELECT 1 FROM api.vaults WHERE user_id = $1`, [id])).rowCount).toBe(0);
    });
  });
});
