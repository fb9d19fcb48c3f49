import { randomBytes } from 'node:crypto';
import { SignJWT, type JWK } from 'jose';
import type { DeepLinkInput, DeepLinkOutput } from '@gradewise/shared/contracts/lti';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { ASSIGNMENT_CUSTOM_PARAMETER, CLAIM, DEEP_LINKING_RESPONSE, LTI_VERSION } from '../lti/claims.ts';
import { importPrivateKey, TOOL_ALGORITHM } from '../lti/keys.ts';
import { LaunchRefusal } from '../lti/verify-id-token.ts';
import { selectAssignmentSummaryById } from '../models/assignments.ts';
import { linkContext, selectContextById, selectPlatformById } from '../models/lti.ts';
import { loadVisibleAssignment, requireOwner } from '../policies/course-access.ts';
import { readDeepLinkRequest, toolUrls, spendDeepLinkRequest } from './lti-launch.ts';
import { activeToolKey } from './lti-registration.ts';

/**
 * Deep Linking 2.0 (decision 0074): the instructor picked a Gradewise assignment in the LMS's "add
 * external tool" dialog; the answer is an LtiDeepLinkingResponse signed with the tool's key, holding
 * one ltiResourceLink to the tool's launch URL with the assignment in a custom parameter and a line
 * item whose maximum is the assignment's points. The browser form-posts it to the return URL.
 *
 * The request's one-time code is the permission (it names the instructor whose launch made it), so
 * the web app can answer with a plain form post; only that instructor's own assignments can be
 * linked (of the linked course when the LMS course is linked). An unlinked LMS course is linked to
 * the picked assignment's course.
 */
export async function createDeepLinkResponse(
  ctx: AppContext,
  input: DeepLinkInput,
  baseUrl: string,
): Promise<DeepLinkOutput> {
  const { user, request } = await readDeepLinkRequest(ctx, input.code);
  const scope = requireOwner(await loadVisibleAssignment(ctx.db, user, input.assignmentId), 'add it to an LMS course');
  if (request.courseId && request.courseId !== scope.course.id) {
    throw new LaunchRefusal(
      'course',
      'Pick an assignment of the Gradewise course this LMS course is linked to.',
      'FORBIDDEN',
    );
  }
  const platform = await selectPlatformById(ctx.db, request.platformId);
  if (!platform) throw new LaunchRefusal('unknown-platform', 'The LMS this request came from is no longer registered.');
  if (!(await spendDeepLinkRequest(ctx, input.code))) {
    throw new LaunchRefusal('handoff', 'This request to add a Gradewise link was already answered.');
  }
  if (!request.courseId) {
    const context = await selectContextById(ctx.db, request.contextId);
    if (context && !context.courseId && context.linkableById === user.id) {
      await linkContext(ctx.db, context.id, scope.course.id);
    }
  }
  const summary = await selectAssignmentSummaryById(ctx.db, scope.assignment.id);
  const key = await activeToolKey(ctx);
  const now = Math.floor(currentTime(ctx).getTime() / 1000);
  const title = scope.assignment.title;
  const contentItem = {
    type: 'ltiResourceLink',
    title,
    url: toolUrls(baseUrl).launchUrl,
    custom: { [ASSIGNMENT_CUSTOM_PARAMETER]: scope.assignment.id },
    lineItem: { scoreMaximum: summary?.points ?? 0, label: title, resourceId: scope.assignment.id },
  };
  const jwt = await new SignJWT({
    nonce: randomBytes(16).toString('base64url'),
    [CLAIM.messageType]: DEEP_LINKING_RESPONSE,
    [CLAIM.version]: LTI_VERSION,
    [CLAIM.deploymentId]: request.deploymentId,
    [CLAIM.deepLinkingContentItems]: [contentItem],
    ...(request.data !== null ? { [CLAIM.deepLinkingData]: request.data } : {}),
  })
    .setProtectedHeader({ alg: TOOL_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(await importPrivateKey(key.privateJwk as JWK));
  return { returnUrl: request.returnUrl, jwt };
}
