-- The displayName visibility of each user's vault permissions, on the user's row: the single mission's
-- view (api/repositories/mission-view.sql.ts) shows each party's name through it without joining
-- api.vaults twice a read (~15 µs of PostgreSQL's CPU a read of ~130, bench B1). The value is the JSON
-- the permissions hold at profileVisibility.displayName ("public", "guilds_only", "private", or a
-- stored JSON null, which no rule shows), '"public"' when the key or the vault is missing: what
-- mergePermissions (api/services/privacy.ts) reads. A trigger keeps it, so every writer of a vault
-- (the API, a vault deletion's reset, an operator's SQL) keeps it too.
ALTER TABLE "api"."users" ADD COLUMN "name_visibility" jsonb DEFAULT '"public"'::jsonb NOT NULL;
--> statement-breakpoint
CREATE FUNCTION "api"."vault_name_visibility"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "api"."users" SET "name_visibility" = '"public"'::jsonb WHERE "id" = OLD."user_id";
    RETURN OLD;
  END IF;
  UPDATE "api"."users" SET "name_visibility" = coalesce(NEW."permissions" #> '{profileVisibility,displayName}', '"public"'::jsonb)
   WHERE "id" = NEW."user_id" AND "name_visibility" IS DISTINCT FROM coalesce(NEW."permissions" #> '{profileVisibility,displayName}', '"public"'::jsonb);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "vaults_name_visibility" AFTER INSERT OR UPDATE OF "permissions" OR DELETE ON "api"."vaults"
  FOR EACH ROW EXECUTE FUNCTION "api"."vault_name_visibility"();
--> statement-breakpoint
UPDATE "api"."users" u SET "name_visibility" = coalesce(v."permissions" #> '{profileVisibility,displayName}', '"public"'::jsonb)
  FROM "api"."vaults" v WHERE v."user_id" = u."id";
