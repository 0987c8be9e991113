// Keys of a table that few events write but every completion would look up (settlement offers,
// referrals): a lookup of a key that never had a row is skipped. Each set holds every key that had a row
// at any time since it was filled (from the table, at its first use in this process) and grows only, so
// "not in the set" means "no row", whatever was rolled back since: a reorg or a retried batch only
// restores rows that existed before, and the rows of an earlier process are in the table it was filled
// from. A key in the set is looked up as before. Every write of such a table must `add` its key.
import { settlementOffers, referrals } from "ponder:schema";
import type { Ctx } from "./types.ts";

export class MaybeStored {
  private keys: Set<string> | null = null;
  constructor(private readonly load: (context: Ctx) => Promise<string[]>) {}

  /** False only when no row for `key` can exist. */
  async may(context: Ctx, key: string): Promise<boolean> {
    return (await this.filled(context)).has(key);
  }

  /** Records a row stored for `key` (in the handler that stores it). */
  async add(context: Ctx, key: string): Promise<void> {
    (await this.filled(context)).add(key);
  }

  private async filled(context: Ctx): Promise<Set<string>> {
    if (this.keys === null) {
      const keys = await this.load(context);
      this.keys ??= new Set(keys);
    }
    return this.keys;
  }
}

/** Missions that may have an open settlement offer (keyed by mission id). */
export const missionsWithOffers = new MaybeStored(async (context) =>
  (await context.db.sql.selectDistinct({ k: settlementOffers.missionId }).from(settlementOffers)).map((r) => r.k),
);

/** Referees that may have a recorded referral. */
export const referees = new MaybeStored(async (context) =>
  (await context.db.sql.select({ k: referrals.referee }).from(referrals)).map((r) => r.k),
);
