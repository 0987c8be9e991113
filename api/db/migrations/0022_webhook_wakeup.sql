-- Wakes the webhook dispatchers (each API copy LISTENs on "webhook_deliveries") when a delivery
-- becomes claimable at a time they did not plan for: a new delivery, or a failed attempt given its
-- retry time. Between wake-ups a dispatcher sleeps until the next due retry or expiring lease it
-- read itself, so an idle outbox costs no queries. pg_notify folds the identical notifications of
-- one transaction into one, sent at commit (none for a rolled-back insert).
CREATE OR REPLACE FUNCTION "api"."webhook_deliveries_wake"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_deliveries', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_deliveries_wake_insert" ON "api"."webhook_deliveries";
--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_wake_insert" AFTER INSERT ON "api"."webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "api"."webhook_deliveries_wake"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_deliveries_wake_retry" ON "api"."webhook_deliveries";
--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_wake_retry" AFTER UPDATE OF "next_attempt_at" ON "api"."webhook_deliveries"
  FOR EACH ROW WHEN (NEW."status" = 'pending' AND NEW."next_attempt_at" IS DISTINCT FROM OLD."next_attempt_at")
  EXECUTE FUNCTION "api"."webhook_deliveries_wake"();
