import { hashPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../lib/ids.ts';
import { insertAssignment } from '../models/assignments.ts';
import { insertCourse, type CourseRow } from '../models/courses.ts';
import { insertEnrollments } from '../models/enrollments.ts';
import { insertQuestion, type QuestionRow } from '../models/questions.ts';
import { insertSubmission, type SubmissionRow } from '../models/submissions.ts';
import { insertUser, selectUserByEmail, type UserRow } from '../models/users.ts';
import { buildPdfWithHiddenText, buildScannedPdf, buildTextPdf } from './pdf-documents.ts';
import { storeFilesThen } from '../services/store-files.ts';
import { checkPdf } from '../storage/file-content.ts';
import { bytesInMemory } from '../storage/upload-bytes.ts';
import {
  DEMO_ASSIGNMENT_TITLE,
  DEMO_COURSE_TITLE,
  DEMO_QUESTIONS,
  DEMO_SYLLABUS_PAGES,
  INJECTION_TEXT,
  STUDENT_FIRST_NAMES,
  STUDENT_LAST_NAMES,
  type AnswerKind,
  type DemoQuestion,
} from './demo-content.ts';

/**
 * Builds a whole course through the same storage checks and tables the app uses: an instructor,
 * a class of students, a syllabus, one assignment, questions with question and solution PDFs, and
 * one generated PDF answer per student and question. The demo, the browser tests and the
 * benchmarks all make their data here, at any size.
 */

export interface CourseFixtureOptions {
  instructor: { name: string; email: string; password: string };
  studentCount: number;
  studentPassword: string;
  /** Students get emails `<first>.<last><n>@<domain>`. */
  studentEmailDomain: string;
  courseTitle?: string;
  assignmentTitle?: string;
  /** Which of the demo questions to include (default: all three). */
  questionKeys?: string[];
  /** Decides each answer's kind; default: a varied rotation (see defaultAnswerKind). */
  answerKind?: (studentIndex: number, questionIndex: number) => AnswerKind;
  /** Students (by index) whose answers arrive after the deadline. */
  lateStudentIndexes?: number[];
  /** Give every answer a second page of working, like a real two-page hand-in. */
  isTwoPageAnswers?: boolean;
  isDemo?: boolean;
  /** "Now" for the timeline: the deadline is 2 days before, answers 3 days before (late: 1 day before). */
  now?: Date;
}

export interface CourseFixture {
  instructor: UserRow;
  students: UserRow[];
  course: CourseRow;
  assignmentId: string;
  questions: QuestionRow[];
  submissions: { submission: SubmissionRow; kind: AnswerKind; studentIndex: number; questionKey: string }[];
}

const ROTATION: AnswerKind[] = [
  'full',
  'paraphrased',
  'partial',
  'mostly-wrong',
  'full',
  'wrong',
  'partial',
  'paraphrased',
  'full',
];

export function defaultAnswerKind(studentIndex: number, questionIndex: number): AnswerKind {
  return ROTATION[(studentIndex + questionIndex * 2) % ROTATION.length]!;
}

const DAY_MS = 24 * 3600 * 1000;

export async function buildCourseFixture(ctx: AppContext, options: CourseFixtureOptions): Promise<CourseFixture> {
  const now = options.now ?? new Date();
  const deadline = new Date(now.getTime() - 2 * DAY_MS);
  const onTimeAt = new Date(now.getTime() - 3 * DAY_MS);
  const lateAt = new Date(now.getTime() - 1 * DAY_MS);
  const questions = DEMO_QUESTIONS.filter(
    (question) => !options.questionKeys || options.questionKeys.includes(question.key),
  );
  const answerKind = options.answerKind ?? defaultAnswerKind;
  const lateStudents = new Set(options.lateStudentIndexes ?? []);

  const instructor = await ensureUser(ctx, {
    ...options.instructor,
    role: 'instructor',
    passwordHash: await hashPassword(options.instructor.password),
  });
  // One hash for the whole class: hashing is deliberately slow, and a 300-student fixture must not take minutes.
  const studentHash = await hashPassword(options.studentPassword);
  const students: UserRow[] = [];
  for (let index = 0; index < options.studentCount; index += 1) {
    // The last name moves with every student (and shifts by one each time the first names wrap),
    // so neighbours on the roster differ in both names and every (first, last) pair is new until
    // the whole grid of first x last names is used up.
    const lap = Math.floor(index / STUDENT_FIRST_NAMES.length);
    const first = STUDENT_FIRST_NAMES[index % STUDENT_FIRST_NAMES.length]!;
    const last = STUDENT_LAST_NAMES[(index + lap) % STUDENT_LAST_NAMES.length]!;
    const round = Math.floor(index / (STUDENT_FIRST_NAMES.length * STUDENT_LAST_NAMES.length));
    const email = `${first}.${last}${round > 0 ? round : ''}@${options.studentEmailDomain}`.toLowerCase();
    students.push(
      await ensureUser(ctx, {
        name: `${first} ${last}${round > 0 ? ` ${round + 1}` : ''}`,
        email,
        role: 'student',
        passwordHash: studentHash,
      }),
    );
  }

  const syllabus = await checkPdf(
    'syllabus',
    bytesInMemory(await buildTextPdf({ pages: DEMO_SYLLABUS_PAGES })),
    'syllabus.pdf',
  );
  const course = await storeFilesThen(ctx, [syllabus], instructor.id, async (tx, [storedSyllabus]) => {
    const inserted = await insertCourse(tx, {
      id: newId(),
      title: options.courseTitle ?? DEMO_COURSE_TITLE,
      instructorId: instructor.id,
      syllabusFileId: storedSyllabus!.id,
      isDemo: options.isDemo ?? false,
    });
    await insertEnrollments(
      tx,
      inserted.id,
      students.map((student) => student.id),
    );
    return inserted;
  });
  const assignment = await insertAssignment(ctx.db, {
    id: newId(),
    courseId: course.id,
    title: options.assignmentTitle ?? DEMO_ASSIGNMENT_TITLE,
    deadline,
  });

  const questionRows: QuestionRow[] = [];
  for (const question of questions) {
    const files = [
      await checkPdf(
        'question',
        bytesInMemory(await buildTextPdf({ pages: question.questionPages })),
        `${question.key}-question.pdf`,
      ),
      await checkPdf(
        'solution',
        bytesInMemory(await buildTextPdf({ pages: question.solutionPages })),
        `${question.key}-solution.pdf`,
      ),
    ];
    questionRows.push(
      await storeFilesThen(ctx, files, instructor.id, (tx, [questionFile, solutionFile]) =>
        insertQuestion(tx, {
          id: newId(),
          assignmentId: assignment.id,
          title: question.title,
          points: question.points,
          questionFileId: questionFile!.id,
          solutionFileId: solutionFile!.id,
        }),
      ),
    );
  }

  const submissions: CourseFixture['submissions'] = [];
  for (const [questionIndex, question] of questions.entries()) {
    for (const [studentIndex, student] of students.entries()) {
      const kind = answerKind(studentIndex, questionIndex);
      const isLate = lateStudents.has(studentIndex);
      const pdf = await checkPdf(
        'submission',
        bytesInMemory(await buildAnswerPdf(question, kind, options.isTwoPageAnswers ?? false)),
        'answer.pdf',
      );
      const submission = await storeFilesThen(ctx, [pdf], student.id, (tx, [file]) =>
        insertSubmission(tx, {
          id: newId(),
          questionId: questionRows[questionIndex]!.id,
          studentId: student.id,
          fileId: file!.id,
          version: 1,
          isLate,
          uploadedById: student.id,
          submittedAt: isLate ? lateAt : onTimeAt,
        }),
      );
      submissions.push({ submission, kind, studentIndex, questionKey: question.key });
    }
  }
  return { instructor, students, course, assignmentId: assignment.id, questions: questionRows, submissions };
}

/** The PDF a student of this kind hands in. */
export async function buildAnswerPdf(
  question: DemoQuestion,
  kind: AnswerKind,
  isTwoPages: boolean,
): Promise<Uint8Array> {
  const heading = `Answer to ${question.title}`;
  switch (kind) {
    case 'blank':
      return buildTextPdf({ pages: [[heading]] });
    case 'scanned':
      return buildScannedPdf([[heading, ...question.answers.full].join('\n')]);
    case 'hidden-injection':
      return buildPdfWithHiddenText({
        visible: [heading, ...question.answers.wrong],
        hidden: INJECTION_TEXT,
        technique: 'white',
      });
    default: {
      const paragraphs = [heading, ...question.answers[kind]];
      if (!isTwoPages) return buildTextPdf({ pages: [paragraphs] });
      return buildTextPdf({
        pages: [paragraphs, ['Working notes', ...question.answers[kind].map((line) => `Check: ${line}`)]],
      });
    }
  }
}

async function ensureUser(
  ctx: AppContext,
  user: { name: string; email: string; role: 'student' | 'instructor'; passwordHash: string },
): Promise<UserRow> {
  const inserted = await insertUser(ctx.db, { id: newId(), ...user });
  if (inserted) return inserted;
  return (await selectUserByEmail(ctx.db, user.email))!;
}
