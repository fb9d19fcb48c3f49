import { extractTextJob } from './extract-text-job.ts';
import { generateRubricJob } from './generate-rubric-job.ts';
import { gradeSubmissionJob } from './grade-submission-job.ts';
import { refreshSuggestionsJob } from './refresh-suggestions-job.ts';

/**
 * Every job this application runs, listed explicitly: a worker process registers exactly these,
 * and a job name that is not here cannot be sent. Their names live in job-names.ts, so a service
 * sends a job without importing its handler.
 */
export const JOB_DEFINITIONS = [gradeSubmissionJob, generateRubricJob, refreshSuggestionsJob, extractTextJob] as const;
