CREATE TABLE "log_checkpoints" (
	"size" bigint PRIMARY KEY NOT NULL,
	"root" "bytea" NOT NULL,
	"note" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_entries" (
	"idx" bigint PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"video_id" integer NOT NULL,
	"capper" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "log_entries_type" CHECK ("log_entries"."type" in ('posted', 'revised', 'graded', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "log_identity" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"origin" text NOT NULL,
	"verifier_key" text NOT NULL,
	"key_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "log_identity_one_row" CHECK ("log_identity"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "log_nodes" (
	"level" smallint NOT NULL,
	"idx" bigint NOT NULL,
	"hash" "bytea" NOT NULL,
	CONSTRAINT "log_nodes_level_idx_pk" PRIMARY KEY("level","idx")
);
--> statement-breakpoint
CREATE TABLE "log_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "log_state_one_row" CHECK ("log_state"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "log_entries_video_idx" ON "log_entries" USING btree ("video_id","idx");--> statement-breakpoint
INSERT INTO "log_state" ("id", "size") VALUES (1, 0);
