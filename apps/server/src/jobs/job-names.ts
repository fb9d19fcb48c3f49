/**
 * The name of every job, apart from the definitions: a service sends a job by its name without
 * importing the job's handler, which imports services itself (a refresh's handler runs the
 * service that sends refreshes). Each definition takes its name from here.
 */
export const JOB_NAMES = {
  gradeSubmission: 'grade-submission',
  generateRubric: 'generate-rubric',
  refreshSuggestions: 'refresh-suggestions',
  extractText: 'extract-text',
} as const;
