-- The read model's change feed (real time): an append-only log of the changes a map subscriber is
-- told about, in commit order, with a NOTIFY per committed transaction. Hand-written; keep statements separated by breakpoints.
CREATE TABLE IF NOT EXISTS "api"."discovery_changes" (
  "seq" bigserial PRIMARY KEY,
  "mission_id" text NOT NULL,
  -- created: the mission first has details (text, point); updated: its state changed (with or without
  -- details), or its details changed.
  "kind" text NOT NULL,
  "at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_changes_at_idx" ON "api"."discovery_changes" ("at");
--> statement-breakpoint
-- Writers of the read model take this transaction lock before writing (discovery-read-model.repository.ts),
-- so sequence numbers are handed out in commit order and a reader's `seq > cursor` never skips a row
-- that commits late. A rebuild sets `discovery.rebuild` locally: it is no news to subscribers.
CREATE OR REPLACE FUNCTION "api"."discovery_missions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE kind text;
BEGIN
  IF current_setting('discovery.rebuild', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    kind := CASE WHEN NEW.title IS NOT NULL THEN 'created' END;
  ELSIF OLD.title IS NULL AND NEW.title IS NOT NULL THEN
    kind := 'created';
  ELSIF OLD.state IS DISTINCT FROM NEW.state OR OLD.performer IS DISTINCT FROM NEW.performer OR (NEW.title IS NOT NULL AND OLD.details_hash IS DISTINCT FROM NEW.details_hash) THEN
    -- A state or performer change (a reorg can swap the performer under the same state) is news even for a mission without off-chain details (one created on-chain
    -- directly): its parties are told, as they are for every other mission.
    kind := 'updated';
  END IF;
  IF kind IS NOT NULL THEN
    INSERT INTO "api"."discovery_changes" (mission_id, kind) VALUES (NEW.id, kind);
    PERFORM pg_notify('discovery_changes', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_missions_changed" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_missions_changed" AFTER INSERT OR UPDATE ON "api"."discovery_missions"
  FOR EACH ROW EXECUTE FUNCTION "api"."discovery_missions_changed"();
