// Off-chain table of the wallet set-up area, schema "api". SQL: migrations/0008_wallet_setup.sql.
import { text, timestamp } from "drizzle-orm/pg-core";
import { api } from "./schema.ts";

/** The last test-token faucet payout per wallet (once per hour). */
export const faucetClaims = api.table("faucet_claims", {
  /** Lowercase 0x address. */
  address: text("address").primaryKey(),
  claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }).notNull(),
});
