-- Login guesses are held back per account AND client (issue 28): the counts so far were per
-- account only and last a day at most, so the table starts over rather than guessing a client.
DROP TABLE "login_throttles";
--> statement-breakpoint
CREATE TABLE "login_throttles" (
	"email" text NOT NULL,
	"client" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_throttles_email_client_pk" PRIMARY KEY("email","client")
);
--> statement-breakpoint
CREATE TABLE "mail_throttles" (
	"mailbox" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_reveals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"assignment_id" uuid NOT NULL,
	"question_id" uuid,
	"revealed_by_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_reveals" ADD CONSTRAINT "identity_reveals_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reveals" ADD CONSTRAINT "identity_reveals_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reveals" ADD CONSTRAINT "identity_reveals_revealed_by_id_users_id_fk" FOREIGN KEY ("revealed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_reveals_assignment_idx" ON "identity_reveals" USING btree ("assignment_id","created_at");
