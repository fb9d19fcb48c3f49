import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  HandoffOutput,
  LinkContextOutput,
  PlatformList,
  PlatformOutput,
  RotateKeyOutput,
  ToolConfigOutput,
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
  link: (contextId: string) => `/lti/contexts/${encodeURIComponent(contextId)}/link`,
  /** Posted by a plain HTML form (the answer is a page that returns to the LMS). */
  deepLinks: '/api/lti/deep-links',
} as const;

const ltiKeys = {
  tool: ['lti', 'tool'] as const,
  platforms: ['lti', 'platforms'] as const,
};

export const LTI_MESSAGES = {
  toolFailed: 'Could not load the addresses for your LMS.',
  platformsFailed: 'Could not load your LMS registrations.',
  registerFailed: 'Could not register the LMS.',
  removeFailed: 'Could not remove the registration.',
  rotateFailed: 'Could not rotate the signing key.',
} as const;

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

export function useLinkContext(contextId: string) {
  return useMutation({
    mutationFn: (choice: LinkContextInput) => apiClient.post(ltiApiPaths.link(contextId), choice, LinkContextOutput),
  });
}
