CREATE TABLE "alert_fanouts" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_preferences" (
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean NOT NULL,
	CONSTRAINT "alert_preferences_user_id_channel_kind_pk" PRIMARY KEY("user_id","channel","kind"),
	CONSTRAINT "alert_preferences_channel" CHECK ("alert_preferences"."channel" in ('in_app', 'email', 'push')),
	CONSTRAINT "alert_preferences_kind" CHECK ("alert_preferences"."kind" in ('new_pick', 'graded', 'subscription'))
);
--> statement-breakpoint
CREATE TABLE "capper_alert_mutes" (
	"user_id" integer NOT NULL,
	"capper_id" integer NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "capper_alert_mutes_user_id_capper_id_channel_pk" PRIMARY KEY("user_id","capper_id","channel"),
	CONSTRAINT "capper_alert_mutes_channel" CHECK ("capper_alert_mutes"."channel" in ('in_app', 'email', 'push'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
DROP INDEX "notifications_user_event_idx";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "grade" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "units_won" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capper_alert_mutes" ADD CONSTRAINT "capper_alert_mutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capper_alert_mutes" ADD CONSTRAINT "capper_alert_mutes_capper_id_users_id_fk" FOREIGN KEY ("capper_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_graded_idx" ON "notifications" USING btree ("user_id","video_id","grade") WHERE kind = 'pick.graded';--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_event_idx" ON "notifications" USING btree ("user_id","event_id") WHERE kind <> 'pick.graded';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('pick.posted', 'pick.graded'));