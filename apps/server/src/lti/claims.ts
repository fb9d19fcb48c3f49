import { z } from 'zod';

/**
 * The claim and message names of IMS LTI 1.3 core, Names and Role Provisioning Services 2.0,
 * Assignment and Grade Services 2.0 and Deep Linking 2.0, spelled as the specifications spell them.
 */
const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  namesRoleService: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  agsEndpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  deepLinkingContentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
} as const;

export const LTI_VERSION = '1.3.0';
export const RESOURCE_LINK_REQUEST = 'LtiResourceLinkRequest';
export const DEEP_LINKING_REQUEST = 'LtiDeepLinkingRequest';
export const DEEP_LINKING_RESPONSE = 'LtiDeepLinkingResponse';

/** The OAuth 2 scopes of the services the tool uses. */
export const SCOPE = {
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
  lineItems: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  scores: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
} as const;

/** The custom parameter a deep link sets, naming the Gradewise assignment the link opens. */
export const ASSIGNMENT_CUSTOM_PARAMETER = 'gradewise_assignment_id';

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership';

/** The role someone has in the LMS course, as Gradewise uses it. */
export type LtiCourseRole = 'instructor' | 'ta' | 'learner' | 'other';

/**
 * Context roles only (institution and system roles say nothing about this course). A teaching
 * assistant is the Instructor sub-role `Instructor#TeachingAssistant`; some platforms also send the
 * principal role beside it, so the sub-role wins. Short names (`Instructor`) are deprecated but sent
 * by some platforms, and count.
 */
export function courseRoleOf(roles: readonly string[]): LtiCourseRole {
  const has = (...names: string[]) => roles.some((role) => names.includes(role));
  if (has(`${MEMBERSHIP}/Instructor#TeachingAssistant`, `${MEMBERSHIP}#TeachingAssistant`, 'TeachingAssistant'))
    return 'ta';
  if (has(`${MEMBERSHIP}#Instructor`, 'Instructor')) return 'instructor';
  if (has(`${MEMBERSHIP}#Learner`, 'Learner')) return 'learner';
  return 'other';
}

export const ROLE_URI = {
  instructor: `${MEMBERSHIP}#Instructor`,
  ta: `${MEMBERSHIP}/Instructor#TeachingAssistant`,
  learner: `${MEMBERSHIP}#Learner`,
  mentor: `${MEMBERSHIP}#Mentor`,
} as const;

const Url = z.url({ protocol: /^https?$/ });

/** The claims of a verified launch that Gradewise reads; the rest are ignored. */
export const LaunchClaims = z.object({
  sub: z.string().min(1).max(255),
  name: z.string().max(200).optional(),
  given_name: z.string().max(200).optional(),
  family_name: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  [CLAIM.messageType]: z.string(),
  [CLAIM.version]: z.string(),
  [CLAIM.deploymentId]: z.string().min(1).max(255),
  [CLAIM.roles]: z.array(z.string()),
  [CLAIM.context]: z
    .object({
      id: z.string().min(1).max(255),
      title: z.string().max(300).optional(),
      label: z.string().max(300).optional(),
    })
    .optional(),
  [CLAIM.resourceLink]: z.object({ id: z.string().min(1).max(255), title: z.string().max(300).optional() }).optional(),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.namesRoleService]: z.object({ context_memberships_url: Url }).optional(),
  [CLAIM.agsEndpoint]: z
    .object({ scope: z.array(z.string()).optional(), lineitems: Url.optional(), lineitem: Url.optional() })
    .optional(),
  [CLAIM.deepLinkingSettings]: z
    .object({
      deep_link_return_url: Url,
      accept_types: z.array(z.string()).optional(),
      data: z.string().max(4096).optional(),
    })
    .optional(),
});
export type LaunchClaims = z.infer<typeof LaunchClaims>;
