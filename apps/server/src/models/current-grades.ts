import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { grades, questions, submissions } from '../db/schema.ts';

/**
 * What the grader learns from, read one way by both of its readers: the examples of a question
 * (models/graded-examples.ts) and the course's convention (models/course-grades.ts). A saved grade
 * counts when it is the newest grade of a student's current answer: not a grade on an earlier
 * version (the student stands by the newer answer). Each reader then leaves out grades applied to
 * an answer group, after the newest grade is picked (a member saved again by hand counts again).
 */

/** The submissions row of that name is its student's current (newest) version of the answer. */
export function isCurrentAnswer(name: string): SQL {
  const row = sql.identifier(name);
  return sql`${row}.version = (select max(cv.version) from ${submissions} cv where cv.question_id = ${row}.question_id and cv.student_id = ${row}.student_id)`;
}

/** The newest saved grade of each current answer of the submissions `where` picks (it may name `questions`). */
export function currentGradesWhere(db: Db, where: SQL | undefined) {
  return db
    .selectDistinctOn([grades.submissionId], {
      submissionId: grades.submissionId,
      questionId: submissions.questionId,
      points: questions.points,
      grade: grades.grade,
      comments: grades.comments,
      gradingRunId: grades.gradingRunId,
      appliedFromGradeId: grades.appliedFromGradeId,
      savedAt: grades.createdAt,
    })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .innerJoin(questions, eq(questions.id, submissions.questionId))
    .where(and(where, isCurrentAnswer('submissions')))
    .orderBy(grades.submissionId, desc(grades.createdAt), desc(grades.id))
    .as('current_grades');
}
