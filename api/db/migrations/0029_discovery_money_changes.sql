-- Money moving without a state change (a partial release or refund, a settlement offer) is news to a
-- mission's map subscribers: the read model carries the chain row's last update, and the change trigger
-- of 0014 also fires 'updated' when it moves. Hand-edited after drizzle-kit's ADD COLUMN; keep statements separated by breakpoints.
ALTER TABLE "api"."discovery_missions" ADD COLUMN "chain_updated_block" bigint;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "api"."discovery_missions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE kind text;
BEGIN
  IF current_setting('discovery.rebuild', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    kind := CASE WHEN NEW.title IS NOT NULL THEN 'created' END;
  ELSIF OLD.title IS NULL AND NEW.title IS NOT NULL THEN
    kind := 'created';
  ELSIF OLD.state IS DISTINCT FROM NEW.state OR OLD.performer IS DISTINCT FROM NEW.performer
     OR (NEW.title IS NOT NULL AND OLD.details_hash IS DISTINCT FROM NEW.details_hash)
     OR (OLD.chain_updated_block IS NOT NULL AND OLD.chain_updated_block IS DISTINCT FROM NEW.chain_updated_block) THEN
    -- A state or performer change (a reorg can swap the performer under the same state) is news even for a mission without
    -- off-chain details (one created on-chain directly): its parties are told, as they are for every other mission. So is
    -- any later update of the chain row (money released, refunded or offered); a row projected before this column existed
    -- (NULL) is not news when the column is first filled.
    kind := 'updated';
  END IF;
  IF kind IS NOT NULL THEN
    INSERT INTO "api"."discovery_changes" (mission_id, kind) VALUES (NEW.id, kind);
    PERFORM pg_notify('discovery_changes', '');
  END IF;
  RETURN NULL;
END $$;
