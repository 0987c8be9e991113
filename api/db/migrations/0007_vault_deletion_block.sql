-- The chain block at a vault deletion: journal entries of blocks up to it (journal id < (block + 1) * 10^9)
-- predate the deletion, so a replay or re-index never turns them into notifications again.
ALTER TABLE "api"."vault_deletions" ADD COLUMN IF NOT EXISTS "chain_block" bigint;
