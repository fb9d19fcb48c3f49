import { apiPaths } from '../lib/api-paths.ts';

/** The three ids of a grading screen's address (`.../assignments/:a/questions/:q/grade/:s`). */
export interface GradingScreenIds {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

/** One read a grading screen's first view needs, as the API client's early requests key it. */
export interface FirstRead {
  method: 'GET' | 'POST';
  /** Relative to the API's base (apiPaths). */
  path: string;
}

/**
 * What the grading screen's first view reads (decisions 0079, 0099): POST grade (the stored result
 * or a suggestion), the question with the submission, the answer's group and, in the review queue,
 * the queue. Sent early, before the screen's code asks for them, by the route's loader
 * (router.tsx) and, on a first visit, by the page's early script (public/grading-screen-early.js,
 * from the list the build writes with build/grading-screen-files.ts, decision 0109); the screen's
 * queries take their answers.
 */
export function gradingScreenFirstReads(ids: GradingScreenIds, withQueue: boolean): FirstRead[] {
  const { assignmentId, questionId, submissionId } = ids;
  return [
    { method: 'POST', path: apiPaths.submissions.grade(assignmentId, questionId, submissionId) },
    { method: 'GET', path: apiPaths.questions.detailSubmission(assignmentId, questionId, submissionId) },
    { method: 'GET', path: apiPaths.questions.answerGroupOf(assignmentId, questionId, submissionId) },
    ...(withQueue ? [{ method: 'GET' as const, path: apiPaths.questions.reviewQueue(assignmentId, questionId) }] : []),
  ];
}
