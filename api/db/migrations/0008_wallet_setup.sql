-- The last test-token faucet payout per wallet (POST /faucet: once per hour).
CREATE TABLE IF NOT EXISTS "api"."faucet_claims" (
	"address" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL
);
