import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { IDENTITY_REVEAL_KINDS } from '@gradewise/shared/contracts/assignments';
import { ROLES } from '@gradewise/shared/contracts/auth';
import { GRADE_REASONS } from '@gradewise/shared/contracts/grade-audit';
import {
  GRADER_KINDS,
  JOB_STATUSES,
  RUBRIC_SOURCES,
  type HiddenTextFinding,
  type RubricItem,
} from '@gradewise/shared/contracts/grading';
import { REGRADE_STATUSES, type RegradeAiRecheck } from '@gradewise/shared/contracts/regrades';
import type { ExtractedPage, RubricItemChange, StoredComment } from './json-columns.ts';

/**
 * The whole data model, one PostgreSQL schema for PGlite and PostgreSQL alike.
 * Change it here, then `npm run db:generate -w @gradewise/server` writes the next migration.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role', { enum: ROLES }).notNull(),
  /** Bumped to revoke every token issued before; tokens carry the version they were issued at. */
  tokenVersion: integer('token_version').notNull().default(0),
  /** When the owner followed a verification (or password reset) link: proof they own the address. */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /**
   * Set when the account was deleted. The row stays as a tombstone (no name, no email, no usable
   * password) so the grades and submissions that point at it stay whole: see decision 0014.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Tokens logged out before they expire (their `jti`); a row can go once its token has expired. */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tokenId: text('token_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('revoked_tokens_expires_idx').on(table.expiresAt)],
);

/**
 * Single-use links sent by email: finish a registration, reset a password. Only a SHA-256 of the
 * link's secret is stored, so reading the database does not hand out working links.
 *
 * With email delivery on, a registration creates no account until its link is followed: the
 * details wait here (`registration`), so nobody can hold an address they cannot read (see
 * decision 0014).
 */
export const emailLinks = pgTable(
  'email_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'reset-password'] }).notNull(),
    email: text('email').notNull(),
    /** The account, for a reset; null for a registration (the account does not exist yet). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** For a registration: what the account is created with when the link is followed. */
    registration: jsonb('registration').$type<{ name: string; passwordHash: string; role: 'student' | 'instructor' }>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('email_links_email_idx').on(table.email), index('email_links_user_idx').on(table.userId)],
);

/**
 * Failed logins per account email (known or not, so the throttle says nothing about which exist)
 * AND client (its network address, an IPv6 /64): after a few failures each further attempt from
 * that client waits longer (services/login-throttle.ts), while the owner signing in from
 * elsewhere is not held back by someone else's guesses.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    email: text('email').notNull(),
    client: text('client').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.email, table.client] })],
);

/**
 * Account emails (verification, password reset) sent to one mailbox in its current hour window,
 * whoever asked for them (services/mail-throttle.ts): the key is the mailbox (sub-address and,
 * for Gmail, dots removed), so a flood cannot reach one inbox under many spellings.
 */
export const mailThrottles = pgTable('mail_throttles', {
  mailbox: text('mailbox').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  sent: integer('sent').notNull(),
});

/**
 * The per-client request limits of the HTTP layer (sign-in, registration, password reset): one row
 * per client and route in its current window, shared by every API process (services/request-limits.ts).
 */
export const requestLimitCounters = pgTable(
  'request_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('request_limit_counters_resets_at_idx').on(table.resetsAt)],
);

/** Every stored blob. Content lives in the storage backend under `storageKey`, never the client's name. */
export const files = pgTable('files', {
  id: uuid('id').primaryKey(),
  kind: text('kind', { enum: ['course-image', 'syllabus', 'question', 'solution', 'submission'] }).notNull(),
  storageKey: text('storage_key').notNull().unique(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
  originalName: text('original_name'),
  uploadedById: uuid('uploaded_by_id').references(() => users.id),
  /** Where the blob lives: 'local' (DATA_DIR/files) or 's3' (S3_BUCKET); `npm run files:to-s3` switches it after a verified copy. */
  location: text('location', { enum: ['local', 's3'] })
    .notNull()
    .default('local'),
  createdAt: createdAt(),
});

export const courses = pgTable(
  'courses',
  {
    id: uuid('id').primaryKey(),
    title: text('title').notNull(),
    instructorId: uuid('instructor_id')
      .notNull()
      .references(() => users.id),
    imageFileId: uuid('image_file_id').references(() => files.id),
    syllabusFileId: uuid('syllabus_file_id').references(() => files.id),
    /** Set on courses created by `npm run demo`, so the demo loader can tell its data from real data. */
    isDemo: boolean('is_demo').notNull().default(false),
    /** The configured provider (AiProviderConfig.id) this course grades with; null: the server's default. */
    aiProviderId: text('ai_provider_id'),
    /** Held to providers on this server: every AI call to an external one is refused (services/course-ai.ts). */
    aiServerOnly: boolean('ai_server_only').notNull().default(false),
    /** Most the course may spend on AI per calendar month (UTC), in millionths of AI_CURRENCY; null: no cap. */
    aiMonthlyBudgetMicros: bigint('ai_monthly_budget_micros', { mode: 'number' }),
    /** Grade All and re-suggest ask for confirmation above this estimate (millionths); null: the default. */
    aiConfirmAboveMicros: bigint('ai_confirm_above_micros', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [index('courses_instructor_idx').on(table.instructorId)],
);

export const enrollments = pgTable(
  'enrollments',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] }), index('enrollments_user_idx').on(table.userId)],
);

/** An email added to a roster before its owner registered; turned into an enrolment at registration. */
export const pendingEnrollments = pgTable(
  'pending_enrollments',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.courseId, table.email] }),
    index('pending_enrollments_email_idx').on(table.email),
  ],
);

/**
 * Teaching assistants of a course (decision 0021). The owner is `courses.instructor_id` and is not
 * listed here; a row is a staff seat for another instructor-role account. A TA may grade in the
 * course but not manage it (policies/course-access.ts is the one home of that rule).
 */
export const courseStaff = pgTable(
  'course_staff',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['ta'] }).notNull(),
    addedById: uuid('added_by_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] }), index('course_staff_user_idx').on(table.userId)],
);

/**
 * Work split by question: the graders (owner or TAs) who grade a question. Several graders on one
 * question share its students in contiguous alphabetical ranges (services/work-split.ts).
 */
export const questionGraders = pgTable(
  'question_graders',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.questionId, table.graderId] }),
    index('question_graders_grader_idx').on(table.graderId),
  ],
);

/**
 * Work split by students (a section): each student of a course has at most one grader, who grades
 * their answers to every question that has no graders of its own.
 */
export const studentGraders = pgTable(
  'student_graders',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.courseId, table.studentId] }),
    index('student_graders_grader_idx').on(table.graderId),
  ],
);

export const assignments = pgTable(
  'assignments',
  {
    id: uuid('id').primaryKey(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }),
    /**
     * The assignment's rule for answers already graded: false (default) refuses a new version once a
     * grade is saved, unless the instructor reopens the question for that student; true accepts it
     * and the earlier grade keeps counting, shown as "grade on an earlier version", until regraded.
     */
    allowsResubmission: boolean('allows_resubmission').notNull().default(false),
    /**
     * Anonymous grading: staff see "Student 1…N" (anonymous_students) instead of names and emails
     * on every grading surface while this is on (docs/decisions/0024-anonymous-grading-and-statistics.md).
     */
    isAnonymous: boolean('is_anonymous').notNull().default(false),
    /**
     * Grade release (decision 0023): while held, students see none of the assignment's grades
     * (score, comments, AI-use note). Default false: a grade is released when it is saved, as before.
     */
    gradesHeld: boolean('grades_held').notNull().default(false),
    /** When the instructor last released held grades; a regrade window starts no earlier. */
    gradesReleasedAt: timestamp('grades_released_at', { withTimezone: true }),
    /** Days after a grade is released during which its student may ask for a regrade (0: never). */
    regradeWindowDays: integer('regrade_window_days').notNull().default(7),
    /** Regrade requests one student may open on this assignment, all questions together. */
    regradeRequestLimit: integer('regrade_request_limit').notNull().default(3),
    createdAt: createdAt(),
  },
  (table) => [index('assignments_course_idx').on(table.courseId)],
);

/**
 * The number each student goes by on an anonymous assignment ("Student 7"). Drawn in a random
 * order when anonymity is first turned on (and for late-comers, after the others), then kept for
 * good, so the label is stable per assignment and says nothing about alphabetical or roster order.
 */
export const anonymousStudents = pgTable(
  'anonymous_students',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.assignmentId, table.studentId] }),
    uniqueIndex('anonymous_students_assignment_number_idx').on(table.assignmentId, table.number),
  ],
);

/**
 * Each time student names were shown while an assignment was anonymous: its owner downloading the
 * named grades CSV, or turning anonymity off (services/anonymous-grading.ts). Never updated.
 */
export const identityReveals = pgTable(
  'identity_reveals',
  {
    id: uuid('id').primaryKey(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    /** The question, for a question's grades CSV; null for the whole assignment. */
    questionId: uuid('question_id').references(() => questions.id, { onDelete: 'cascade' }),
    revealedById: uuid('revealed_by_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: IDENTITY_REVEAL_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('identity_reveals_assignment_idx').on(table.assignmentId, table.createdAt)],
);

export const questions = pgTable(
  'questions',
  {
    id: uuid('id').primaryKey(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    title: text('title'),
    points: doublePrecision('points').notNull(),
    questionFileId: uuid('question_file_id')
      .notNull()
      .references(() => files.id),
    solutionFileId: uuid('solution_file_id').references(() => files.id),
    /** Held grades of this question only (the assignment can hold all of its questions at once). */
    gradesHeld: boolean('grades_held').notNull().default(false),
    gradesReleasedAt: timestamp('grades_released_at', { withTimezone: true }),
    /**
     * Moves whenever the class's answer keys may have changed: a submission added or removed, or a
     * student who answered renamed (triggers of migration 0016). The question page's cached class
     * order is valid for one revision only (services/class-order.ts, decision 0058).
     */
    classRevision: integer('class_revision').notNull().default(0),
    /**
     * The instructor lets comments state the expected answer (value, formula, the reference's
     * words). Off: comments say what is missing without giving the answer away (decision 0088).
     */
    showExpectedAnswer: boolean('show_expected_answer').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [index('questions_assignment_idx').on(table.assignmentId)],
);

/** Text pulled out of a stored PDF (text layer or OCR), with hidden-text findings. One row per file. */
export const fileExtractions = pgTable('file_extractions', {
  fileId: uuid('file_id')
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  /**
   * 'queued' when the submission is stored (the extract-text job reads it), 'reading' while a
   * thread reads it, then 'succeeded' or 'failed' (with `error`, and `errorCode`).
   */
  status: text('status', { enum: ['queued', 'reading', 'succeeded', 'failed'] }).notNull(),
  /** What graders read: visible text only, pages joined. */
  text: text('text').notNull().default(''),
  /** Per page: { page, text, method: 'text-layer' | 'ocr', ocrConfidence? } */
  pages: jsonb('pages')
    .$type<ExtractedPage[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** Text a reader cannot see (white, tiny, off-page, covered), kept out of `text`. */
  hiddenText: jsonb('hidden_text')
    .$type<HiddenTextFinding[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  error: text('error'),
  /**
   * Why it failed: an extraction error code ('timeout', 'out-of-memory', 'corrupt', ...; see
   * pdf/extraction-error.ts) or a job error code. A file fault is never read again; others are.
   */
  errorCode: text('error_code'),
  /** Queued at (the submission's commit, or the first read of other files). */
  createdAt: createdAt(),
  /** When the read finished ('succeeded' or 'failed'); null while queued or reading. */
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** The rubric of a question: one current row; AI drafts and instructor edits both land here. */
export const rubrics = pgTable('rubrics', {
  questionId: uuid('question_id')
    .primaryKey()
    .references(() => questions.id, { onDelete: 'cascade' }),
  questionText: text('question_text').notNull(),
  solutionText: text('solution_text').notNull(),
  /** [{ id, criterion, points, guidance }], points add up to the question's points. */
  items: jsonb('items')
    .$type<RubricItem[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  source: text('source', { enum: RUBRIC_SOURCES }).notNull(),
  generationId: uuid('generation_id'),
  updatedById: uuid('updated_by_id').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Bumped by every write (AI draft or instructor save): a save names the version it edited (409 when stale). */
  version: integer('version').notNull().default(1),
});

/**
 * Every version a question's rubric has had, one row per write (an AI draft or an instructor's
 * save), with who wrote it, what changed from the version before and how many saved grades the
 * change re-applied to (decision 0022). The current one is also in `rubrics`.
 */
export const rubricVersions = pgTable(
  'rubric_versions',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    questionText: text('question_text').notNull(),
    solutionText: text('solution_text').notNull(),
    /** [{ id, criterion, points, guidance }] as written in this version. */
    items: jsonb('items')
      .$type<RubricItem[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    source: text('source', { enum: RUBRIC_SOURCES }).notNull(),
    generationId: uuid('generation_id'),
    createdById: uuid('created_by_id').references(() => users.id),
    /** [{ itemId, kind: 'added' | 'removed' | 'points' | 'wording' | 'guidance', from?, to? }] */
    changes: jsonb('changes')
      .$type<RubricItemChange[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Saved grades this version recomputed (their comments were tied to a changed item). */
    regradedCount: integer('regraded_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('rubric_versions_question_version_idx').on(table.questionId, table.version)],
);

/** A (possibly queued) AI rubric draft: job state visible through our own table. */
export const rubricGenerations = pgTable(
  'rubric_generations',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    graderKind: text('grader_kind', { enum: GRADER_KINDS }).notNull(),
    provider: text('provider').notNull(),
    /** The configured provider (AiProviderConfig.id) chosen when the draft was queued. */
    providerId: text('provider_id'),
    model: text('model').notNull(),
    promptVersion: text('prompt_version').notNull(),
    /** The provider's answer, stored before it is acted on, so a retry never pays twice. */
    rawOutput: jsonb('raw_output'),
    result: jsonb('result'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    latencyMs: integer('latency_ms'),
    /** Times a job started this draft; too many starts without finishing fail it (a poison job). */
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /** The error code of `error` (shared ErrorCode), so a waiting request answers the same failure. */
    errorCode: text('error_code'),
    requestedById: uuid('requested_by_id').references(() => users.id),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('rubric_generations_question_idx').on(table.questionId),
    // At most one draft in flight per question: concurrent requests join it instead of paying twice.
    uniqueIndex('rubric_generations_one_active_idx')
      .on(table.questionId)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/** Every uploaded answer is kept as a version; the latest per (question, student) is the current one. */
export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    version: integer('version').notNull(),
    /** Fixed at submit time against the deadline then in force. */
    isLate: boolean('is_late').notNull(),
    uploadedById: uuid('uploaded_by_id')
      .notNull()
      .references(() => users.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('submissions_question_student_version_idx').on(table.questionId, table.studentId, table.version),
    index('submissions_student_idx').on(table.studentId),
    // For the triggers of question_list_changes: a file's text and an uploader's name reach their question's list.
    index('submissions_file_idx').on(table.fileId),
    index('submissions_uploaded_by_idx').on(table.uploadedById),
  ],
);

/**
 * The instructor reopened a graded question for one student: a new version may be submitted until
 * a grade is saved again (a grade saved after the newest reopening closes it). History is kept.
 */
export const submissionReopenings = pgTable(
  'submission_reopenings',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    reopenedById: uuid('reopened_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [index('submission_reopenings_question_student_idx').on(table.questionId, table.studentId)],
);

/** A grade-all request for a question; progress is counted from its grading runs. */
export const gradingBatches = pgTable(
  'grading_batches',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    requestedById: uuid('requested_by_id').references(() => users.id),
    total: integer('total').notNull(),
    /** Set by Stop: the batch's queued runs were cancelled then (services/grade-all.ts). */
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    stoppedById: uuid('stopped_by_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [index('grading_batches_question_idx').on(table.questionId)],
);

/** One AI grading attempt of a submission: queued work, its stored answer, and the suggestion. */
export const gradingRuns = pgTable(
  'grading_runs',
  {
    id: uuid('id').primaryKey(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    batchId: uuid('batch_id').references(() => gradingBatches.id, { onDelete: 'set null' }),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    graderKind: text('grader_kind', { enum: GRADER_KINDS }).notNull(),
    provider: text('provider').notNull(),
    /** The configured provider (AiProviderConfig.id) chosen when the run was queued: it finishes on it. */
    providerId: text('provider_id'),
    model: text('model').notNull(),
    promptVersion: text('prompt_version').notNull(),
    rawOutput: jsonb('raw_output'),
    /** [{ id, text, pointsDeducted, accepted, rubricItemId }] */
    comments: jsonb('comments').$type<StoredComment[]>(),
    totalScore: doublePrecision('total_score'),
    confidence: integer('confidence'),
    /**
     * 0..1: the grader's chance that the score is off by more than 40% of the points (the built-in
     * grader from 3.4.0; null otherwise). The review queue orders by it (decision 0097).
     */
    missChance: doublePrecision('miss_chance'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    latencyMs: integer('latency_ms'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * How many saved grades on other answers to the question the grader was given as examples
     * (0: a cold start). Written with the provider's answer, so it describes the call that was made.
     */
    examplesUsed: integer('examples_used').notNull().default(0),
    error: text('error'),
    /** The error code of `error` (shared ErrorCode), so a waiting request answers the same failure. */
    errorCode: text('error_code'),
    requestedById: uuid('requested_by_id').references(() => users.id),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    // The newest run of each submission straight from the index, no sort (the question page's
    // DISTINCT ON, models/grading-runs.ts; decision 0040). Its first column serves lookups by
    // submission too, so it replaces the plain submission_id index.
    index('grading_runs_submission_newest_idx').on(
      table.submissionId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The newest succeeded run of each submission, the same way.
    index('grading_runs_submission_newest_succeeded_idx')
      .on(table.submissionId, table.finishedAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.status} = 'succeeded'`),
    // The runs that take an answer off Grade All's list (in flight, or a suggestion made): its
    // count probes this once per ungraded answer of the class on every question page, and finds
    // its answer in the first entry instead of walking every run of the submission (decision 0058).
    // The predicate is the one in models/grading-targets.ts, word for word, so the planner uses it.
    index('grading_runs_submission_suggested_idx')
      .on(table.submissionId)
      .where(sql`${table.status} in ('queued', 'running', 'succeeded')`),
    index('grading_runs_batch_idx').on(table.batchId),
    // At most one run in flight per submission: grade, regrade and grade-all join it, never double it.
    uniqueIndex('grading_runs_one_active_idx')
      .on(table.submissionId)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/** Grades saved by an instructor. Never updated: each save is a new row, the newest is current. */
export const grades = pgTable(
  'grades',
  {
    id: uuid('id').primaryKey(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    grade: doublePrecision('grade').notNull(),
    feedback: text('feedback').notNull().default(''),
    comments: jsonb('comments').$type<StoredComment[]>().notNull(),
    confidence: integer('confidence'),
    gradingRunId: uuid('grading_run_id').references(() => gradingRuns.id, { onDelete: 'set null' }),
    /**
     * Set when this grade was applied from another answer's saved grade with "Apply to group": the
     * comments and deductions are that grade's, copied. Such a grade repeats one decision, so it
     * does not count towards "grade these first" (docs/decisions/0012-answer-groups.md).
     */
    appliedFromGradeId: uuid('applied_from_grade_id').references((): AnyPgColumn => grades.id, {
      onDelete: 'set null',
    }),
    savedById: uuid('saved_by_id')
      .notNull()
      .references(() => users.id),
    /**
     * Why this row exists: 'save' (a person saved it on the grading screen), 'group' (Apply to
     * group copied it), 'rubric-change' (a rubric edit re-applied its items to the grade it
     * replaces; `savedById` is who edited the rubric). See decision 0022.
     */
    reason: text('reason', { enum: GRADE_REASONS }).notNull().default('save'),
    /** The rubric version in force when the row was written; null for grades saved before versions were kept. */
    rubricVersion: integer('rubric_version'),
    /** For a 'rubric-change' row: the grade it recomputed (still kept, one row older). */
    replacesGradeId: uuid('replaces_grade_id').references((): AnyPgColumn => grades.id, { onDelete: 'set null' }),
    /** clock_timestamp(): a save that waited for a rubric change's locks is newer than that change's rows. */
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index('grades_submission_idx').on(table.submissionId)],
);

/**
 * A student's request to look again at a saved grade: one rubric item of it, or the whole answer
 * (`rubricItemId` null). `itemKey` is the item id or '' so that one index keeps at most one open
 * request per student, question and item. Resolved by staff with a reply; an accepted request
 * with a new grade points at the grade it saved (through the normal save path, so history stays).
 */
export const regradeRequests = pgTable(
  'regrade_requests',
  {
    id: uuid('id').primaryKey(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    /** The saved grade the student disputed (the one their report showed). */
    gradeId: uuid('grade_id').references(() => grades.id, { onDelete: 'set null' }),
    rubricItemId: text('rubric_item_id'),
    itemKey: text('item_key').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: REGRADE_STATUSES }).notNull(),
    reply: text('reply'),
    resolvedById: uuid('resolved_by_id').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedGradeId: uuid('resolved_grade_id').references(() => grades.id, { onDelete: 'set null' }),
    /** The AI's second look at the disputed item only: a draft for staff, never applied by itself. */
    aiRecheck: jsonb('ai_recheck').$type<RegradeAiRecheck>(),
    createdAt: createdAt(),
  },
  (table) => [
    index('regrade_requests_assignment_student_idx').on(table.assignmentId, table.studentId),
    index('regrade_requests_question_status_idx').on(table.questionId, table.status),
    uniqueIndex('regrade_requests_one_open_idx')
      .on(table.questionId, table.studentId, table.itemKey)
      .where(sql`${table.status} = 'open'`),
  ],
);

/**
 * Which worker process runs which pg-boss job, and when it last said it is alive. Every worker
 * touches its leases every few seconds; a job still 'active' whose lease went quiet belongs to a
 * dead process and is handed back to the queue by any other worker (jobs/job-queue.ts). One row
 * per job (queue name + job id, the work row's id); old rows are swept away.
 */
export const jobLeases = pgTable(
  'job_leases',
  {
    queueName: text('queue_name').notNull(),
    jobId: uuid('job_id').notNull(),
    workerId: uuid('worker_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.queueName, table.jobId] }),
    index('job_leases_worker_idx').on(table.workerId),
  ],
);

/**
 * A background refresh of a question's pending suggestions after a grade was saved: the built-in
 * grader suggests again every current answer with a suggestion and no saved grade, using the saved
 * grades as examples. One row per refresh; at most one queued per question (saves in quick succession join
 * it) and at most one running per question (refreshes of one question never overlap).
 */
export const suggestionRefreshes = pgTable(
  'suggestion_refreshes',
  {
    id: uuid('id').primaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    /** Saved grades the refresh learned from (set when it runs). */
    examplesUsed: integer('examples_used'),
    /** Answers it re-suggested. */
    resuggested: integer('resuggested'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    errorCode: text('error_code'),
    requestedById: uuid('requested_by_id').references(() => users.id),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('suggestion_refreshes_question_idx').on(table.questionId, table.createdAt),
    uniqueIndex('suggestion_refreshes_one_queued_idx')
      .on(table.questionId)
      .where(sql`${table.status} = 'queued'`),
    uniqueIndex('suggestion_refreshes_one_running_idx')
      .on(table.questionId)
      .where(sql`${table.status} = 'running'`),
  ],
);

/**
 * AI spend: how many calls each limit has counted in one fixed window (a minute, a clock hour or
 * a UTC day). One row per limit, subject (the user, course or instructor) and window; a call
 * counts by incrementing every row it falls under in one transaction, refused as a whole when one
 * would go over (services/ai-spend.ts). Durable, so limits hold across restarts and processes.
 * No foreign keys: a count outlives nothing it needs, and never blocks deleting a course or user.
 */
export const aiUsageCounts = pgTable(
  'ai_usage_counts',
  {
    limitName: text('limit_name').notNull(),
    subjectId: uuid('subject_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.limitName, table.subjectId, table.windowStart] })],
);

/**
 * The provider calls of jobs already counted, by work row (a grading run or a rubric generation):
 * a job run again after a crash or a retry is not counted twice.
 */
export const aiCharges = pgTable('ai_charges', {
  workId: uuid('work_id').primaryKey(),
  courseId: uuid('course_id').notNull(),
  chargedAt: timestamp('charged_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What each AI call cost (issue 31): one row per work row that called a provider (a grading run,
 * a rubric draft, a rubric trial or regrade check, a model check's answer), written with the
 * provider's reported tokens and priced when it answered. Spend per course, assignment and month,
 * and the budgets, are sums of these. No foreign keys to the work: spend outlives a deleted run.
 */
export const aiCosts = pgTable(
  'ai_costs',
  {
    workId: uuid('work_id').primaryKey(),
    kind: text('kind', { enum: ['grading', 'rubric', 'trial', 'recheck', 'model-check'] }).notNull(),
    courseId: uuid('course_id').notNull(),
    instructorId: uuid('instructor_id').notNull(),
    assignmentId: uuid('assignment_id'),
    questionId: uuid('question_id'),
    batchId: uuid('batch_id'),
    providerId: text('provider_id').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    /** A grading call's rubric items: what the estimate learns an answer's length per item from. */
    rubricItems: integer('rubric_items'),
    /** Millionths of AI_CURRENCY: tokens x the provider's price per million tokens. */
    costMicros: bigint('cost_micros', { mode: 'number' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ai_costs_course_idx').on(table.courseId, table.recordedAt),
    index('ai_costs_instructor_idx').on(table.instructorId, table.recordedAt),
    index('ai_costs_batch_idx').on(table.batchId),
    index('ai_costs_provider_idx').on(table.providerId, table.recordedAt),
  ],
);

/**
 * A model check (issue 31, item 5): a candidate provider run on a sample of the course's saved
 * grades before switching to it, its agreement with them side by side with the current one. Kept.
 */
export const aiModelChecks = pgTable(
  'ai_model_checks',
  {
    id: uuid('id').primaryKey(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    requestedById: uuid('requested_by_id').references(() => users.id),
    candidateProviderId: text('candidate_provider_id').notNull(),
    currentProviderId: text('current_provider_id').notNull(),
    sampleSize: integer('sample_size').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    result: jsonb('result'),
    costMicros: bigint('cost_micros', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    /** Migration 0024: starts of its job (too many give it up) and the failure's code. */
    attempts: integer('attempts').notNull().default(0),
    errorCode: text('error_code'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('ai_model_checks_course_idx').on(table.courseId, table.createdAt)],
);

/** What one provider said about one answer of a model check: its total and per-item points, or why it could not. */
export type ModelCheckVerdict =
  { score: number; items: Record<string, number>; confidence: number } | { error: string };

/**
 * One answer of a model check's sample (migration 0024, decision 0077): the saved grade it is
 * compared with, copied when the check was queued, and what each provider said, written as it
 * answered (with its ai_costs row, in one transaction), so a retried job asks only what is left.
 * The row's id is the candidate call's work id in ai_costs, `current_work_id` the current one's.
 * No foreign key to the submission: a check's history outlives an answer deleted since.
 */
export const aiModelCheckAnswers = pgTable(
  'ai_model_check_answers',
  {
    id: uuid('id').primaryKey(),
    checkId: uuid('check_id')
      .notNull()
      .references(() => aiModelChecks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    submissionId: uuid('submission_id').notNull(),
    questionId: uuid('question_id').notNull(),
    savedScore: doublePrecision('saved_score').notNull(),
    savedComments: jsonb('saved_comments').$type<StoredComment[]>().notNull(),
    currentWorkId: uuid('current_work_id').notNull(),
    candidate: jsonb('candidate').$type<ModelCheckVerdict>(),
    current: jsonb('current').$type<ModelCheckVerdict>(),
  },
  (table) => [uniqueIndex('ai_model_check_answers_position_idx').on(table.checkId, table.position)],
);

/**
 * Who has a submission open in the grading screen ("Being graded by ..."): one lease per
 * submission, refreshed while the screen is open and void once `expires_at` has passed, so a
 * closed tab frees it by itself. Presence only: it warns, it never blocks a save.
 */
export const gradingLeases = pgTable(
  'grading_leases',
  {
    submissionId: uuid('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('grading_leases_grader_idx').on(table.graderId)],
);

/**
 * How many times what a question's whole staff list shows has changed (decision 0065): triggers of
 * migration 0018 add one in the same transaction as any change to a row the list reads (answers,
 * grades, runs, extracted text, rubric, reopenings, graders, leases, roster, anonymous numbers, the
 * names shown). The sum over a question's rows is its revision; the server keeps the serialised
 * list for one revision (services/kept-question-lists.ts). Up to 16 rows per question (`slot` is
 * the writing backend's pid modulo 16), so concurrent writers rarely wait on one row.
 */
export const questionListChanges = pgTable(
  'question_list_changes',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    changes: bigint('changes', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.questionId, table.slot] })],
);

/*
 * LTI 1.3 Advantage (issue 32, decision 0074; migration 0022). The tool's own signing keys, the
 * platforms (LMSs) registered with it, and the links from LMS people, courses (contexts) to
 * Gradewise accounts and courses. The protocol lives in `src/lti/`, the use cases in `services/lti-*`.
 */

/**
 * The tool's RS256 key pairs. One is active (`retired_at` null) and signs; a rotated key is
 * retired and still published in the tool's JWKS until `expires_at`, so tokens it signed verify.
 */
export const ltiKeys = pgTable(
  'lti_keys',
  {
    kid: text('kid').primaryKey(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('lti_keys_one_active_idx')
      .on(sql`(true)`)
      .where(sql`${table.retiredAt} IS NULL`),
  ],
);

/** A platform (an LMS installation) registered by an instructor: how to reach it and check its tokens. */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    keysetUrl: text('keyset_url').notNull(),
    registeredById: uuid('registered_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('lti_platforms_issuer_client_idx').on(table.issuer, table.clientId)],
);

/** The deployment ids a platform's launches may carry; a launch from any other is refused. */
export const ltiDeployments = pgTable(
  'lti_deployments',
  {
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.platformId, table.deploymentId] })],
);

/** An OIDC login in flight: its state (also in the browser's cookie) and nonce, used once. */
export const ltiLoginStates = pgTable('lti_login_states', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  platformId: uuid('platform_id')
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  /** The platform's login initiation parameters, to start the same login again in a new tab. */
  loginParams: jsonb('login_params').$type<Record<string, string>>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** An LMS person (the platform's `sub`) and the Gradewise account they launch as. */
export const ltiUsers = pgTable(
  'lti_users',
  {
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.platformId, table.subject] }), index('lti_users_user_idx').on(table.userId)],
);

/** An LMS course (context) and, once an instructor linked or created it, its Gradewise course. */
export const ltiContexts = pgTable(
  'lti_contexts',
  {
    id: uuid('id').primaryKey(),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    contextId: text('context_id').notNull(),
    title: text('title').notNull(),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    /** The LMS instructor whose launch found the context unlinked: the one who may link it. */
    linkableById: uuid('linkable_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Names and Role Provisioning Services: the context's membership URL, when the platform offers it. */
    membershipsUrl: text('memberships_url'),
    /** Assignment and Grade Services: the context's line items URL, when the platform offers it. */
    lineItemsUrl: text('line_items_url'),
    /** When a launch last synced the roster (NRPS): launches sync at most once an hour (decision 0076). */
    rosterSyncedAt: timestamp('roster_synced_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('lti_contexts_platform_context_idx').on(table.platformId, table.contextId),
    index('lti_contexts_course_idx').on(table.courseId),
  ],
);

/** A launch handed to the web app: a one-time code (stored hashed) for a session and where to land. */
export const ltiLaunchHandoffs = pgTable('lti_launch_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  landing: jsonb('landing').$type<Record<string, unknown>>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * The LMS roster of a context as the last Names and Role Provisioning sync read it: who is in it,
 * as what, and who left (`status` 'left': no longer listed, or listed Inactive). Leaving keeps the
 * person's Gradewise seat and work; the roster shows them as left.
 */
export const ltiMembers = pgTable(
  'lti_members',
  {
    contextId: uuid('context_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['instructor', 'ta', 'learner'] }).notNull(),
    status: text('status', { enum: ['active', 'left'] }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.contextId, table.userId] })],
);

/**
 * Assignment and Grade Services (decision 0076): the LMS line item an assignment's scores go to, per
 * LMS course linked to its course. Learned from a launch of a deep-linked assignment (the `lineitem`
 * of its AGS claim), else found by `resource_id` or created by the grade passback job.
 */
export const ltiLineItems = pgTable(
  'lti_line_items',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    contextId: uuid('context_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.assignmentId, table.contextId] })],
);

/**
 * One score post to an LMS (decision 0076): the work row of a `lti-score-post` job. The score is
 * computed when the job runs (never from a grade that is not released), and what was sent is kept.
 * At most one queued row per (LMS course, assignment, student): a change while one waits joins it.
 */
export const ltiScorePosts = pgTable(
  'lti_score_posts',
  {
    id: uuid('id').primaryKey(),
    contextId: uuid('context_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    errorCode: text('error_code'),
    /** What the LMS answered to the last failed try, word for word (shortened). */
    platformMessage: text('platform_message'),
    /** What was sent (null while nothing was): the score, its maximum and the grading progress. */
    scoreGiven: doublePrecision('score_given'),
    scoreMaximum: doublePrecision('score_maximum'),
    gradingProgress: text('grading_progress'),
    /** True when nothing was released to send (the row finished without a post). */
    skipped: boolean('skipped').notNull().default(false),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('lti_score_posts_assignment_idx').on(table.assignmentId, table.createdAt),
    uniqueIndex('lti_score_posts_one_queued_idx')
      .on(table.contextId, table.assignmentId, table.studentId)
      .where(sql`${table.status} = 'queued'`),
    uniqueIndex('lti_score_posts_one_running_idx')
      .on(table.contextId, table.assignmentId, table.studentId)
      .where(sql`${table.status} = 'running'`),
  ],
);
