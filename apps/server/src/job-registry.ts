import { checkModelJob } from './services/check-model.ts';
import { extractTextJob } from './services/ensure-file-extraction.ts';
import { generateRubricJob } from './services/run-rubric-generation.ts';
import { gradeSubmissionJob } from './services/run-grading.ts';
import { refreshSuggestionsJob } from './services/refresh-suggestions.ts';
import { postLtiScoreJob } from './services/lti-grade-passback.ts';

/**
 * Every job this application runs, listed explicitly: a worker process registers exactly these,
 * and a job that is not here cannot be sent. Each is defined beside the service that does its
 * work; this list sits with boot, above the layers, so jobs/ (the queue) never imports services.
 */
export const JOB_DEFINITIONS = [
  gradeSubmissionJob,
  generateRubricJob,
  refreshSuggestionsJob,
  extractTextJob,
  postLtiScoreJob,
  checkModelJob,
] as const;
