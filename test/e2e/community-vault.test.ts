// The data vault over HTTP: initialize (automatic at sign-in), sync, export (real contents from the
// chain views and off-chain rows), permissions (deep merge, enums), delete (exact literal; exactly
// the deletable rows, checked in Postgres; on-chain data stays; repeatable; fresh profile after).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, type PrivateKeyAccount } from "viem/accounts";
import pg from "pg";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;
let S: string;

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async (sql: string, params: unknown[]) => Number((await pool.query(sql, params)).rows[0].n);

/** Off-chain rows of one user, per deletable category (and the export logs). */
async function offChainRows(userId: string, address: string) {
  const a = address.toLowerCase();
  return {
    profile: await count(`SELECT count(*) AS n FROM api.users WHERE id = $1 AND (display_name <> '' OR bio <> '' OR avatar <> '')`, [userId]),
    locationHistory: await count(`SELECT count(*) AS n FROM api.location_history WHERE user_id = $1`, [userId]),
    activityHistory: await count(`SELECT count(*) AS n FROM api.discovery_events WHERE user_id = $1`, [userId]),
    notificationPreferences: await count(`SELECT count(*) AS n FROM api.notification_preferences WHERE address = $1`, [a]),
    deviceTokens: await count(`SELECT count(*) AS n FROM api.device_tokens WHERE user_id = $1`, [userId]),
    notifications: await count(`SELECT count(*) AS n FROM api.notifications WHERE address = $1`, [a]),
    authNonces: await count(`SELECT count(*) AS n FROM api.auth_nonces WHERE lower(address) = $1`, [a]),
    idempotencyKeys: await count(`SELECT count(*) AS n FROM api.idempotency_keys WHERE scope = $1`, [`user:${userId}`]),
    rateLimitBuckets: await count(`SELECT count(*) AS n FROM api.rate_limit_buckets WHERE key = $1`, [`user:${userId}`]),
  };
}
async function onChainRows(address: string) {
  const a = address.toLowerCase();
  return {
    missions: await count(`SELECT count(*) AS n FROM ${S}.missions WHERE lower(poster) = $1 OR lower(performer) = $1`, [a]),
    ratings: await count(`SELECT count(*) AS n FROM ${S}.ratings WHERE lower(rater) = $1 OR lower(ratee) = $1`, [a]),
    guildMembers: await count(`SELECT count(*) AS n FROM ${S}.guild_members WHERE lower(account) = $1 AND active`, [a]),
    xp: await count(`SELECT count(*) AS n FROM ${S}.xp_ledger WHERE lower("user") = $1`, [a]),
  };
}

beforeAll(async () => {
  chain = chainEnv();
  // No relaying here: a relayer key of its own keeps the API off anvil account 0's nonces (the test's faucet).
  api = await startTestApi({ REACTORS_POLL_MS: "50", RATE_LIMIT_STORE: "postgres", RELAYER_PRIVATE_KEY: generatePrivateKey() }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
  S = `"${api.server.env.CHAIN_SCHEMA}"`;
});
afterAll(async () => {
  await pool?.end();
  await api?.stop();
});

describe("vault", () => {
  let me: PrivateKeyAccount;
  let other: PrivateKeyAccount;
  let token: string;
  let otherToken: string;
  let userId: string;
  let missionOnChainId: bigint;

  it("history on-chain first; sign-in creates the vault; initialize is idempotent", async () => {
    me = await chain.freshUser();
    other = await chain.freshUser();
    const m = await chain.completeMission(me, other, usdc(7));
    missionOnChainId = m.onChainId;
    await chain.attestRating(me, other.address, m.onChainId, 5, "fast and friendly");
    await chain.attestRating(other, me.address, m.onChainId, 4, "clear task");
    await chain.guilds(me, "join", [1, me.address]);
    await chain.disputed(me, other, usdc(3), me);

    token = await signIn(api.url, me);
    otherToken = await signIn(api.url, other);
    const u = await pool.query(`SELECT id FROM api.users WHERE evm_address = $1`, [me.address.toLowerCase()]);
    userId = u.rows[0].id;
    const v = await pool.query(`SELECT permissions FROM api.vaults WHERE user_id = $1`, [userId]);
    expect(v.rowCount, "sign-in creates the vault").toBe(1);

    const again = await call(api.url, "POST", "/vault/initialize", { token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ success: true, message: "Vault already initialized" });
    await pool.query(`DELETE FROM api.vaults WHERE user_id = $1`, [userId]);
    const init = await call(api.url, "POST", "/vault/initialize", { token });
    expect(init.body).toEqual({ success: true, message: "Vault initialized" });
    expect((await pool.query(`SELECT 1 FROM api.vaults WHERE user_id = $1`, [userId])).rowCount).toBe(1);
    expectError(await call(api.url, "POST", "/vault/initialize"), 401, "UNAUTHORIZED");
  });

  it("permissions: defaults, deep partial merge, enums validated", async () => {
    const g = await call(api.url, "GET", "/vault/permissions", { token });
    expect(g.status).toBe(200);
    const defaults = {
      locationSharing: { enabled: false, precision: "neighborhood", liveTrackingConsent: false },
      profileVisibility: { displayName: "public", bio: "public", stats: "public", missionHistory: "public" },
      notifications: { push: true, email: false, marketing: false },
    };
    expect(g.body).toEqual(defaults);
    const p = await call(api.url, "PATCH", "/vault/permissions", {
      token, body: { locationSharing: { precision: "exact" }, profileVisibility: { bio: "guilds_only" } },
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const merged = {
      ...defaults,
      locationSharing: { ...defaults.locationSharing, precision: "exact" },
      profileVisibility: { ...defaults.profileVisibility, bio: "guilds_only" },
    };
    expect(p.body).toEqual(merged);
    const p2 = await call(api.url, "PATCH", "/vault/permissions", { token, body: { notifications: { marketing: true } } });
    merged.notifications = { ...defaults.notifications, marketing: true };
    expect(p2.body).toEqual(merged);
    expect((await call(api.url, "GET", "/vault/permissions", { token })).body).toEqual(merged);

    const bad = await call(api.url, "PATCH", "/vault/permissions", { token, body: { locationSharing: { precision: "street" } } });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details[0].field).toBe("body.locationSharing.precision");
    const badVis = await call(api.url, "PATCH", "/vault/permissions", { token, body: { profileVisibility: { stats: "friends" } } });
    expectError(badVis, 400, "VALIDATION_ERROR");
    expect(badVis.body.error.details[0].field).toBe("body.profileVisibility.stats");
    expectError(await call(api.url, "PATCH", "/vault/permissions", { token, body: {} }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "PATCH", "/vault/permissions", { token, body: { bogus: {} } }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "PATCH", "/vault/permissions", { token, body: { notifications: { push: "yes" } } }), 400, "VALIDATION_ERROR");
    expect((await call(api.url, "GET", "/vault/permissions", { token })).body).toEqual(merged); // unchanged by bad input
    // Concurrent PATCHes of different fields all land (row lock around the merge).
    const flips = ["displayName", "bio", "stats", "missionHistory"] as const;
    const rs = await Promise.all(flips.map((f) => call(api.url, "PATCH", "/vault/permissions", { token, body: { profileVisibility: { [f]: "private" } } })));
    for (const r of rs) expect(r.status).toBe(200);
    const final = (await call(api.url, "GET", "/vault/permissions", { token })).body;
    expect(final.profileVisibility).toEqual({ displayName: "private", bio: "private", stats: "private", missionHistory: "private" });
    expect(final.locationSharing.precision).toBe("exact");
  });

  it("notification switches are one truth: the vault and /notifications/preferences read and write the same", async () => {
    const prefs = async () => (await call(api.url, "GET", "/notifications/preferences", { token })).body;
    const vault = async () => (await call(api.url, "GET", "/vault/permissions", { token })).body.notifications;
    // The vault's earlier PATCH (marketing: true) is what the preferences say.
    expect(await prefs()).toMatchObject({ pushEnabled: true, emailEnabled: false, marketingUpdates: true });
    const viaPrefs = await call(api.url, "PATCH", "/notifications/preferences", { token, body: { pushEnabled: false, emailEnabled: true } });
    expect(viaPrefs.status, JSON.stringify(viaPrefs.body)).toBe(200);
    expect(await vault()).toEqual({ push: false, email: true, marketing: true });
    const viaVault = await call(api.url, "PATCH", "/vault/permissions", { token, body: { notifications: { push: true, marketing: false } } });
    expect(viaVault.status, JSON.stringify(viaVault.body)).toBe(200);
    expect(viaVault.body.notifications).toEqual({ push: true, email: true, marketing: false });
    expect(await prefs()).toMatchObject({ pushEnabled: true, emailEnabled: true, marketingUpdates: false, missionUpdates: true });
    const row = (await pool.query(`SELECT push_enabled, email_enabled, marketing_updates FROM api.notification_preferences WHERE address = $1`, [me.address.toLowerCase()])).rows[0];
    expect(row).toEqual({ push_enabled: true, email_enabled: true, marketing_updates: false });
  });

  it("sync rebuilds the cached summary from current state", async () => {
    const s = await call(api.url, "POST", "/vault/sync", { token });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.success).toBe(true);
    expect(new Date(s.body.lastSyncedAt).toISOString()).toBe(s.body.lastSyncedAt);
    expect(s.body.summary).toMatchObject({ missionsPosted: 2, missionsPerformed: 0, guilds: 1, ratingsGiven: 1, ratingsReceived: 1, disputes: 1 });
    const row = await pool.query(`SELECT v.last_synced_at, s.summary FROM api.vaults v JOIN api.vault_summaries s USING (user_id) WHERE user_id = $1`, [userId]);
    expect(row.rows[0].last_synced_at.toISOString()).toBe(s.body.lastSyncedAt);
    expect(row.rows[0].summary).toEqual(s.body.summary);
  });

  it("export: every key with real contents; logged", async () => {
    const patch = await call(api.url, "PATCH", "/users/me", { token, body: { displayName: "Vera Vault", bio: "I deliver." } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    await call(api.url, "PATCH", "/notifications/preferences", { token, body: { xpUpdates: false } });
    const logsBefore = await count(`SELECT count(*) AS n FROM api.vault_export_logs WHERE user_id = $1`, [userId]);
    const e = await call(api.url, "GET", "/vault/export", { token });
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    const x = e.body;
    expect(Object.keys(x).sort()).toEqual(["achievements", "disputes", "exportedAt", "guilds", "missions", "notifications", "ratings", "user", "xp"]);
    expect(x.user).toEqual({ id: userId, evmAddress: me.address.toLowerCase(), displayName: "Vera Vault", bio: "I deliver.", createdAt: expect.any(String) });
    expect(x.missions.posted.map((m: any) => m.onChainId)).toContain(String(missionOnChainId));
    expect(x.missions.posted.length).toBe(2);
    expect(x.missions.posted[0]).toMatchObject({ state: "Completed", rewardAmount: "7.000000" });
    expect(x.missions.performed).toEqual([]);
    expect(x.xp.history.reduce((s: number, h: any) => s + h.xpDelta, 0)).toBe(x.xp.total);
    expect(x.xp.level).toBeGreaterThanOrEqual(1);
    expect(x.guilds).toEqual([expect.objectContaining({ name: "demo-guild", isCurator: false })]);
    expect(x.ratings.given).toEqual([expect.objectContaining({ ratee: other.address.toLowerCase(), score: 5, missionOnChainId: String(missionOnChainId) })]);
    expect(x.ratings.received).toEqual([expect.objectContaining({ rater: other.address.toLowerCase(), score: 4 })]);
    expect(x.disputes).toEqual([expect.objectContaining({ role: "poster", initiatedByMe: true })]);
    expect(x.notifications.preferences).toMatchObject({ xpUpdates: false, pushEnabled: true });
    expect(Array.isArray(x.achievements)).toBe(true);
    // The performer's export: the same mission as performed, soulbound achievement(s) if minted.
    const o = (await call(api.url, "GET", "/vault/export", { token: otherToken })).body;
    expect(o.missions.performed.map((m: any) => m.onChainId)).toContain(String(missionOnChainId));
    expect(o.xp.total).toBeGreaterThan(0); // mission_complete XP of the performer
    expect(o.xp.history.length).toBeGreaterThan(0);
    expect(o.xp.history.reduce((s: number, h: any) => s + h.xpDelta, 0)).toBe(o.xp.total);
    expect(o.xp.history[0]).toMatchObject({ source: expect.any(String), transactionHash: expect.stringMatching(/^0x/) });
    const nfts = await count(`SELECT count(*) AS n FROM ${S}.nfts WHERE lower(owner) = $1 AND soulbound`, [other.address.toLowerCase()]);
    expect(o.achievements.length).toBe(nfts);
    expect(await count(`SELECT count(*) AS n FROM api.vault_export_logs WHERE user_id = $1`, [userId])).toBe(logsBefore + 1);
    expectError(await call(api.url, "GET", "/vault/export"), 401, "UNAUTHORIZED");
  });

  it("delete: wrong literal -> 400 and nothing deleted; right literal removes exactly the deletable rows", async () => {
    // Fill every deletable category.
    await call(api.url, "POST", "/notifications/register-device", { token, body: { token: "apns-vault", platform: "ios" } });
    await call(api.url, "POST", "/notifications/register-device", { token: otherToken, body: { token: "apns-other", platform: "ios" } });
    await pool.query(
      `INSERT INTO api.location_history (user_id, mission_id, latitude, longitude, accuracy, distance, verified) VALUES ($1, 'm', 1, 2, 5, 10, true)`,
      [userId],
    );
    await pool.query(`INSERT INTO api.discovery_events (user_id, kind, query) VALUES ($1, 'search', 'secret plans')`, [userId]);
    await call(api.url, "POST", "/auth/message", { body: { address: me.address } }); // a pending nonce
    const idem = await call(api.url, "POST", "/vault/sync", { token, headers: { "Idempotency-Key": "vault-key-1" } });
    expect(idem.status).toBe(200);
    // Notifications come from the reactor: wait until it has consumed the whole chain so far.
    const head = await chain.client.getBlockNumber();
    await api.follows!.waitForBlock(head);
    for (let i = 0; i < 600; i++) {
      if (await reactorPassed(pool, api.server.env.CHAIN_SCHEMA, "notifications", head)) break;
      await sleep(50);
    }
    const before = await offChainRows(userId, me.address);
    for (const [k, v] of Object.entries(before)) expect(v, k).toBeGreaterThan(0);
    const otherBefore = await offChainRows((await pool.query(`SELECT id FROM api.users WHERE evm_address = $1`, [other.address.toLowerCase()])).rows[0].id, other.address);
    const chainBefore = await onChainRows(me.address);

    const wrong = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "delete_all_my_data" } });
    expectError(wrong, 400, "VALIDATION_ERROR");
    expect(wrong.body.error.details[0].field).toBe("body.confirmation");
    expectError(await call(api.url, "DELETE", "/vault/delete", { token, body: {} }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "DELETE", "/vault/delete", { token }), 400, "VALIDATION_ERROR");
    const afterWrong = await offChainRows(userId, me.address);
    expect({ ...afterWrong, rateLimitBuckets: 1 }).toEqual({ ...before, rateLimitBuckets: 1 }); // buckets count requests
    expect(await count(`SELECT count(*) AS n FROM api.vault_deletions WHERE user_id = $1`, [userId])).toBe(0);

    const del = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(Object.keys(del.body).sort()).toEqual(["deletedAt", "message", "note", "success"]);
    expect(del.body.success).toBe(true);
    expect(new Date(del.body.deletedAt).toISOString()).toBe(del.body.deletedAt);
    expect(del.body.note).toMatch(/on-chain/i);
    const after = await offChainRows(userId, me.address);
    expect(after).toEqual({
      profile: 0, locationHistory: 0, activityHistory: 0, notificationPreferences: 0, deviceTokens: 0, notifications: 0,
      authNonces: 0, idempotencyKeys: 0, rateLimitBuckets: 0,
    });
    const user = (await pool.query(`SELECT * FROM api.users WHERE id = $1`, [userId])).rows[0];
    expect(user).toMatchObject({ display_name: "", bio: "", avatar: "", solana_address: null, evm_address: me.address.toLowerCase() });
    const rec = await pool.query(`SELECT categories FROM api.vault_deletions WHERE user_id = $1`, [userId]);
    expect(rec.rows[0].categories).toMatchObject({ profile: 1, deviceTokens: 1, locationHistory: 1, activityHistory: 1 });
    // The other user's rows and all on-chain data are untouched.
    const otherId = (await pool.query(`SELECT id FROM api.users WHERE evm_address = $1`, [other.address.toLowerCase()])).rows[0].id;
    const otherAfter = await offChainRows(otherId, other.address);
    expect({ ...otherAfter, rateLimitBuckets: 0 }).toEqual({ ...otherBefore, rateLimitBuckets: 0 });
    expect(await onChainRows(me.address)).toEqual(chainBefore);
    // Every token issued before the deletion stops at once; a new sign-in starts afresh.
    const old = token;
    for (const [method, path] of [["GET", "/users/me"], ["GET", "/vault/permissions"], ["GET", "/notifications"]] as const) {
      expectError(await call(api.url, method, path, { token: old }), 401, "UNAUTHORIZED");
    }
    token = await signIn(api.url, me);
    expect((await call(api.url, "GET", "/users/me", { token })).status).toBe(200);
    expectError(await call(api.url, "GET", "/users/me", { token: old }), 401, "UNAUTHORIZED");
    // Vault back to a fresh account's: default permissions, and the notification switches' defaults too.
    expect((await call(api.url, "GET", "/vault/permissions", { token })).body.notifications).toEqual({ push: true, email: false, marketing: false });
    expect((await call(api.url, "GET", "/vault/permissions", { token })).body.locationSharing.precision).toBe("neighborhood");
    // Export still shows the chain data, with an empty profile.
    const x = (await call(api.url, "GET", "/vault/export", { token })).body;
    expect(x.missions.posted.length).toBe(2);
    expect(x.user).toMatchObject({ displayName: "", bio: "" });
    expect(x.notifications.preferences.xpUpdates).toBe(true);
  });

  it("deleting again is harmless; signing in again gives a fresh profile", async () => {
    const firstCreated = (await pool.query(`SELECT created_at FROM api.users WHERE id = $1`, [userId])).rows[0].created_at;
    const again = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.success).toBe(true);
    expectError(await call(api.url, "GET", "/users/me", { token }), 401, "UNAUTHORIZED");
    const t2 = await signIn(api.url, me);
    const m = await call(api.url, "GET", "/users/me", { token: t2 });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body).toMatchObject({ displayName: "", bio: "" });
    const created = (await pool.query(`SELECT created_at FROM api.users WHERE id = $1`, [userId])).rows[0].created_at;
    expect(created.getTime()).toBeGreaterThanOrEqual(firstCreated.getTime());
    expect((await call(api.url, "GET", "/vault/permissions", { token: t2 })).body.profileVisibility.bio).toBe("public");
    expect(await count(`SELECT count(*) AS n FROM api.vault_deletions WHERE user_id = $1`, [userId])).toBe(2);
  });

  it("retention: export logs older than 90 days are purged", async () => {
    await pool.query(`INSERT INTO api.vault_export_logs (user_id, bytes, exported_at) VALUES ($1, 1, now() - interval '91 days'), ($1, 2, now() - interval '89 days')`, [userId]);
    const purged = await api.server.deps.services.vault.purgeExportLogs();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await count(`SELECT count(*) AS n FROM api.vault_export_logs WHERE exported_at < now() - interval '90 days'`, [])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM api.vault_export_logs WHERE user_id = $1 AND bytes = 2`, [userId])).toBe(1);
  });

  it("all vault endpoints are in /openapi.json", async () => {
    const doc = (await call(api.url, "GET", "/openapi.json")).body;
    for (const p of ["/vault/initialize", "/vault/sync", "/vault/export", "/vault/delete", "/vault/permissions"]) expect(doc.paths[p], p).toBeDefined();
    expect(Object.keys(doc.paths["/vault/permissions"]).sort()).toEqual(["get", "patch"]);
  });
});
