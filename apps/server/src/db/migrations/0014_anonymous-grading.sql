ALTER TABLE "assignments" ADD COLUMN "is_anonymous" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "anonymous_students" (
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "anonymous_students_assignment_id_student_id_pk" PRIMARY KEY("assignment_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "anonymous_students" ADD CONSTRAINT "anonymous_students_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "anonymous_students" ADD CONSTRAINT "anonymous_students_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "anonymous_students_assignment_number_idx" ON "anonymous_students" USING btree ("assignment_id","number");
