-- Foreign keys take the names drizzle-kit gives them (<table>_<column>_<ref table>_<ref column>_fk), so
-- the schema files, the generated snapshot and every database agree and later generated migrations can
-- drop or change them by name.
ALTER TABLE "api"."device_tokens" RENAME CONSTRAINT "device_tokens_user_id_fkey" TO "device_tokens_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."discovery_events" RENAME CONSTRAINT "discovery_events_user_id_fkey" TO "discovery_events_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."dispute_evidence" RENAME CONSTRAINT "dispute_evidence_uploaded_by_fkey" TO "dispute_evidence_uploaded_by_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."dispute_resolutions" RENAME CONSTRAINT "dispute_resolutions_author_id_fkey" TO "dispute_resolutions_author_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."location_history" RENAME CONSTRAINT "location_history_user_id_fkey" TO "location_history_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."vault_deletions" RENAME CONSTRAINT "vault_deletions_user_id_fkey" TO "vault_deletions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."vault_export_logs" RENAME CONSTRAINT "vault_export_logs_user_id_fkey" TO "vault_export_logs_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."vault_summaries" RENAME CONSTRAINT "vault_summaries_user_id_fkey" TO "vault_summaries_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api"."webhook_attempts" RENAME CONSTRAINT "webhook_attempts_delivery_id_fkey" TO "webhook_attempts_delivery_id_webhook_deliveries_id_fk";--> statement-breakpoint
ALTER TABLE "api"."webhook_attempts" RENAME CONSTRAINT "webhook_attempts_endpoint_id_fkey" TO "webhook_attempts_endpoint_id_webhook_endpoints_id_fk";--> statement-breakpoint
ALTER TABLE "api"."webhook_deliveries" RENAME CONSTRAINT "webhook_deliveries_endpoint_id_fkey" TO "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";--> statement-breakpoint
ALTER TABLE "api"."webhook_endpoints" RENAME CONSTRAINT "webhook_endpoints_user_id_fkey" TO "webhook_endpoints_user_id_users_id_fk";--> statement-breakpoint
-- One naming of ids: `*_on_chain_id` is the chain's integer, `*_id` a UUID.
ALTER TABLE "api"."mission_proofs" RENAME COLUMN "on_chain_id" TO "mission_on_chain_id";--> statement-breakpoint
ALTER TABLE "api"."dispute_records" RENAME COLUMN "on_chain_id" TO "mission_on_chain_id";--> statement-breakpoint
ALTER TABLE "api"."dispute_records" RENAME COLUMN "on_chain_dispute_id" TO "dispute_on_chain_id";
