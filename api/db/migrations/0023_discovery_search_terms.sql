-- The search side's postings: one row per (mission, lexeme) of api.discovery_search with the rank a
-- one-word query gives that mission (ts_rank of its vector for that lexeme) and the order's next key.
-- A one-word /feed/search reads its best rows and its exact count from the key index alone
-- (index-only scans): at 1M missions "piano" (10,054 matches) counts in ~1.3 ms instead of ~15 ms of
-- GIN bitmap + one heap page per match, and "help" (250,386) in ~35 ms instead of ~350 ms. Queries
-- of several words, operators or filters keep the GIN path (api/repositories/discovery.repository.ts).
-- Kept by statement triggers on api.discovery_search (itself kept from discovery_missions, under the
-- read model's write lock). Hand-written after drizzle-kit's CREATE TABLE; the snapshot is 0023.
CREATE TABLE IF NOT EXISTS "api"."discovery_search_terms" (
	"lexeme" text NOT NULL,
	"rank" real NOT NULL,
	"details_created_at" timestamp with time zone NOT NULL,
	"id" uuid NOT NULL
);
--> statement-breakpoint
-- The one-lexeme tsquery of a lexeme (tsquery's own quoting: '' and \\), the query a one-word search is.
CREATE OR REPLACE FUNCTION "api"."search_term_query"(lexeme text) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''')::tsquery
$$;
--> statement-breakpoint
-- The lexeme of a tsquery that is one plain lexeme (no weight, no prefix, no operator), else NULL.
CREATE OR REPLACE FUNCTION "api"."search_term_of"(q tsquery) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN numnode(q) = 1 AND left(t, 1) = '''' AND right(t, 1) = '''' THEN replace(replace(substr(t, 2, length(t) - 2), '''''', ''''), '\\', '\') END
    FROM (SELECT q::text AS t) x
$$;
--> statement-breakpoint
-- A row's key is exact (a NULL details_created_at is stored as +infinity, which sorts first in DESC
-- order as NULL does), so the triggers delete old postings by their key through the key index. An
-- update rewrites a mission's postings only when its vector or its details time changed (a state
-- change leaves them alone).
CREATE OR REPLACE FUNCTION "api"."discovery_search_terms_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (A transition table exists only in the branch of its operation: old_rows is unknown to an INSERT.)
  IF TG_OP = 'DELETE' THEN
    -- The rebuild empties the postings first: then there is nothing to look up.
    IF EXISTS (SELECT 1 FROM api.discovery_search_terms) THEN
      DELETE FROM api.discovery_search_terms t
       USING (SELECT u.lexeme, ts_rank(o.search_vector, api.search_term_query(u.lexeme)) AS rank,
                     coalesce(o.details_created_at, 'infinity') AS created, o.id::uuid AS id
                FROM old_rows o CROSS JOIN LATERAL unnest(o.search_vector) u) x
       WHERE t.lexeme = x.lexeme AND t.rank = x.rank AND t.details_created_at = x.created AND t.id = x.id;
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO api.discovery_search_terms (lexeme, rank, details_created_at, id)
      SELECT u.lexeme, ts_rank(n.search_vector, api.search_term_query(u.lexeme)), coalesce(n.details_created_at, 'infinity'), n.id::uuid
        FROM new_rows n CROSS JOIN LATERAL unnest(n.search_vector) u;
  ELSE
    DELETE FROM api.discovery_search_terms t
     USING (SELECT u.lexeme, ts_rank(o.search_vector, api.search_term_query(u.lexeme)) AS rank,
                   coalesce(o.details_created_at, 'infinity') AS created, o.id::uuid AS id
              FROM old_rows o CROSS JOIN LATERAL unnest(o.search_vector) u
             WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.search_vector = o.search_vector
                                  AND n.details_created_at IS NOT DISTINCT FROM o.details_created_at)) x
     WHERE t.lexeme = x.lexeme AND t.rank = x.rank AND t.details_created_at = x.created AND t.id = x.id;
    INSERT INTO api.discovery_search_terms (lexeme, rank, details_created_at, id)
      SELECT u.lexeme, ts_rank(n.search_vector, api.search_term_query(u.lexeme)), coalesce(n.details_created_at, 'infinity'), n.id::uuid
        FROM new_rows n CROSS JOIN LATERAL unnest(n.search_vector) u
       WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.search_vector = n.search_vector
                            AND o.details_created_at IS NOT DISTINCT FROM n.details_created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_terms_insert" ON "api"."discovery_search";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_terms_insert" AFTER INSERT ON "api"."discovery_search"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_terms_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_terms_update" ON "api"."discovery_search";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_terms_update" AFTER UPDATE ON "api"."discovery_search"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_terms_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_terms_delete" ON "api"."discovery_search";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_terms_delete" AFTER DELETE ON "api"."discovery_search"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_terms_apply"();
--> statement-breakpoint
-- Existing rows, then the index (one bulk build instead of an insert per posting into it).
INSERT INTO "api"."discovery_search_terms" (lexeme, rank, details_created_at, id)
  SELECT u.lexeme, ts_rank(s.search_vector, "api"."search_term_query"(u.lexeme)), coalesce(s.details_created_at, 'infinity'), s.id::uuid
    FROM "api"."discovery_search" s CROSS JOIN LATERAL unnest(s.search_vector) u
   WHERE NOT EXISTS (SELECT 1 FROM "api"."discovery_search_terms");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_search_terms_key_idx" ON "api"."discovery_search_terms" USING btree ("lexeme","rank" DESC NULLS LAST,"details_created_at" DESC NULLS LAST,"id");
