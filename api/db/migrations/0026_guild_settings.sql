CREATE TABLE "api"."guild_settings" (
	"guild_id" uuid PRIMARY KEY NOT NULL,
	"min_reputation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
