CREATE TABLE "log_pending" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"video_id" integer NOT NULL,
	"capper" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"bytes" "bytea" NOT NULL
);
