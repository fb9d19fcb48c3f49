CREATE TABLE "job_leases" (
	"queue_name" text NOT NULL,
	"job_id" uuid NOT NULL,
	"worker_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_leases_queue_name_job_id_pk" PRIMARY KEY("queue_name","job_id")
);
--> statement-breakpoint
CREATE INDEX "job_leases_worker_idx" ON "job_leases" USING btree ("worker_id");