CREATE TABLE "api"."push_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notification_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api"."push_deliveries" ADD CONSTRAINT "push_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "api"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api"."push_deliveries" ADD CONSTRAINT "push_deliveries_device_id_device_tokens_id_fk" FOREIGN KEY ("device_id") REFERENCES "api"."device_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api"."push_deliveries" ADD CONSTRAINT "push_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "api"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_deliveries_once_idx" ON "api"."push_deliveries" USING btree ("notification_id","device_id");--> statement-breakpoint
CREATE INDEX "push_deliveries_pending_idx" ON "api"."push_deliveries" USING btree ("user_id","created_at","id") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "push_deliveries_finished_idx" ON "api"."push_deliveries" USING btree ("finished_at");