CREATE TABLE "ai_charges" (
	"work_id" uuid PRIMARY KEY NOT NULL,
	"course_id" uuid NOT NULL,
	"charged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_usage_counts" (
	"limit_name" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "ai_usage_counts_limit_name_subject_id_window_start_pk" PRIMARY KEY("limit_name","subject_id","window_start")
);
