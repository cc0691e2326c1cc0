CREATE TABLE "log_cosignatures" (
	"size" bigint NOT NULL,
	"witness" text NOT NULL,
	"root" "bytea" NOT NULL,
	"line" text NOT NULL,
	"cosigned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "log_cosignatures_size_witness_pk" PRIMARY KEY("size","witness")
);
--> statement-breakpoint
CREATE INDEX "log_cosignatures_witness_idx" ON "log_cosignatures" USING btree ("witness","size");