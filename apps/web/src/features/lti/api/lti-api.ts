import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AccountLinkOutput,
  CourseLmsLinksOutput,
  GradePassbackOutput,
  HandoffOutput,
  LinkContextOutput,
  PlatformList,
  PlatformOutput,
  RosterSyncOutput,
  RotateKeyOutput,
  SendGradesOutput,
  ToolConfigOutput,
  type AccountLinkInput,
  type LinkContextInput,
  type RegisterPlatformInput,
} from '@gradewise/shared/contracts/lti';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';

/** LTI 1.3 (issue 32, decision 0074): the API paths of this feature, and its hooks. */
export const ltiApiPaths = {
  tool: '/lti/tool',
  platforms: '/lti/platforms',
  platform: (id: string) => `/lti/platforms/${encodeURIComponent(id)}`,
  rotateKey: '/lti/keys/rotate',
  handoff: '/lti/handoff',
  accountLink: '/lti/account-link',
  link: (contextId: string) => `/lti/contexts/${encodeURIComponent(contextId)}/link`,
  gradePassback: (assignmentId: string) => `/assignments/${encodeURIComponent(assignmentId)}/lti-grade-passback`,
  rosterSync: (courseId: string) => `/courses/${encodeURIComponent(courseId)}/lti-roster-sync`,
  courseLinks: (courseId: string) => `/courses/${encodeURIComponent(courseId)}/lti-links`,
  /** Posted by a plain HTML form (the answer is a page that returns to the LMS). */
  deepLinks: '/api/lti/deep-links',
} as const;

const ltiKeys = {
  tool: ['lti', 'tool'] as const,
  platforms: ['lti', 'platforms'] as const,
  gradePassback: (assignmentId: string) => ['lti', 'grade-passback', assignmentId] as const,
  courseLinks: (courseId: string) => ['lti', 'course-links', courseId] as const,
};

export const LTI_MESSAGES = {
  toolFailed: 'Could not load the addresses for your LMS.',
  platformsFailed: 'Could not load your LMS registrations.',
  registerFailed: 'Could not register the LMS.',
  removeFailed: 'Could not remove the registration.',
  rotateFailed: 'Could not rotate the signing key.',
  passbackFailed: 'Could not load what was sent to the LMS.',
  sendGradesFailed: 'Could not send the grades to the LMS.',
  rosterSyncFailed: 'Could not sync the roster from the LMS.',
  courseLinksFailed: 'Could not load the LMS courses linked to this course.',
} as const;

/** While a post waits (queued, or between retries), the list is read again this often. */
const PASSBACK_REFRESH_MS = 3000;

export function useToolConfig() {
  return useQuery({
    queryKey: ltiKeys.tool,
    queryFn: ({ signal }) => apiClient.get(ltiApiPaths.tool, ToolConfigOutput, { signal }),
  });
}

export function usePlatforms() {
  return useQuery({
    queryKey: ltiKeys.platforms,
    queryFn: ({ signal }) => apiClient.get(ltiApiPaths.platforms, PlatformList, { signal }),
  });
}

export function useRegisterPlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterPlatformInput) => apiClient.post(ltiApiPaths.platforms, input, PlatformOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.platforms }),
  });
}

export function useRemovePlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(ltiApiPaths.platform(id), MessageOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.platforms }),
  });
}

export function useRotateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(ltiApiPaths.rotateKey, {}, RotateKeyOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.tool }),
  });
}

export function redeemHandoff(code: string): Promise<HandoffOutput> {
  return apiClient.post(ltiApiPaths.handoff, { code }, HandoffOutput);
}

/** "Use my existing Gradewise account" on an instructor's first launch (decision 0076). */
export function linkExistingAccount(input: AccountLinkInput): Promise<AccountLinkOutput> {
  return apiClient.post(ltiApiPaths.accountLink, input, AccountLinkOutput);
}

export function useLinkContext(contextId: string) {
  return useMutation({
    mutationFn: (choice: LinkContextInput) => apiClient.post(ltiApiPaths.link(contextId), choice, LinkContextOutput),
  });
}

/** Where each student's score stands with the LMS (decision 0076): the course's staff. */
export function useGradePassback(assignmentId: string) {
  return useQuery({
    queryKey: ltiKeys.gradePassback(assignmentId),
    queryFn: ({ signal }) => apiClient.get(ltiApiPaths.gradePassback(assignmentId), GradePassbackOutput, { signal }),
    refetchInterval: (query) =>
      query.state.data?.rows.some((row) => row.state === 'pending') ? PASSBACK_REFRESH_MS : false,
  });
}

/** The owner sends every LMS student's released score again. */
export function useSendGradesToLms(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(ltiApiPaths.gradePassback(assignmentId), {}, SendGradesOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.gradePassback(assignmentId) }),
  });
}

/** The owner brings the course's roster in line with the LMS (Names and Role Provisioning). */
export function useSyncLtiRoster(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(ltiApiPaths.rosterSync(courseId), {}, RosterSyncOutput),
    // New students and staff change the course's lists everywhere.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** The LMS courses linked to a course and their roster's state: the course's staff. */
export function useCourseLmsLinks(courseId: string) {
  return useQuery({
    queryKey: ltiKeys.courseLinks(courseId),
    queryFn: ({ signal }) => apiClient.get(ltiApiPaths.courseLinks(courseId), CourseLmsLinksOutput, { signal }),
  });
}
