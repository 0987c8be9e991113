DROP INDEX "api"."mission_details_on_chain_id_idx";--> statement-breakpoint
ALTER TABLE "api"."dispute_records" ADD COLUMN "escrow_address" text;--> statement-breakpoint
ALTER TABLE "api"."mission_details" ADD COLUMN "escrow_address" text;--> statement-breakpoint
CREATE INDEX "mission_details_mission_idx" ON "api"."mission_details" USING btree ("on_chain_id","escrow_address");--> statement-breakpoint
-- Rows written before this migration: bound to the escrow the indexer's views show for their on-chain id
-- (one escrow per deployment). Without those views (a fresh database) there is nothing to bind.
DO $$
BEGIN
  IF to_regclass('chain.missions') IS NOT NULL THEN
    UPDATE "api"."mission_details" d SET "escrow_address" = lower(m.escrow_address)
      FROM chain.missions m WHERE d.on_chain_id = m.on_chain_id::text AND d.escrow_address IS NULL;
  END IF;
  IF to_regclass('chain.disputes') IS NOT NULL THEN
    UPDATE "api"."dispute_records" r SET "escrow_address" = lower(x.escrow_address)
      FROM chain.disputes x WHERE r.dispute_on_chain_id = x.on_chain_id::text AND r.escrow_address IS NULL;
  END IF;
END $$;
