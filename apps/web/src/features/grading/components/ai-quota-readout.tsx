import { Typography } from '@mui/material';
import type { AiLimitUsage, AiQuotaOutput } from '@gradewise/shared/contracts/ai-quota';
import { AI_QUOTA_MESSAGES, useAiQuota } from '../api/ai-quota-api.ts';

const number = new Intl.NumberFormat('en-US');

/** "14:00 UTC": windows are UTC minutes, hours and days, so the reset is said in UTC. */
function resetTime(usage: AiLimitUsage): string {
  return `${usage.resetsAt.slice(11, 16)} UTC`;
}

function describe(quota: AiQuotaOutput): { headline: string; details: string } {
  const minute = `${number.format(quota.perMinute.remaining)} of ${number.format(quota.perMinute.limit)} AI calls left this minute`;
  if (quota.provider === 'builtin' || !quota.providerQuotas) {
    return { headline: 'Built-in grader: no provider quota.', details: `You have ${minute}.` };
  }
  const { courseHour, courseDay, instructorHour, instructorDay } = quota.providerQuotas;
  const of = (usage: AiLimitUsage) => `${number.format(usage.remaining)} of ${number.format(usage.limit)}`;
  return {
    headline: `AI provider calls left now: ${number.format(quota.providerCallsLeft ?? 0)}.`,
    details:
      `This course: ${of(courseHour)} this hour (resets ${resetTime(courseHour)}), ${of(courseDay)} today. ` +
      `All your courses: ${of(instructorHour)} this hour, ${of(instructorDay)} today (resets ${resetTime(instructorDay)}). ` +
      `You have ${minute}.`,
  };
}

/**
 * A small readout of the AI spend left, where AI actions are offered (the question page). Grade All
 * needs one call per ungraded answer; a batch that does not fit is refused whole by the server.
 */
export function AiQuotaReadout({ assignmentId, questionId }: { assignmentId: string; questionId: string }) {
  const quota = useAiQuota(assignmentId, questionId);
  if (quota.isPending) {
    return (
      <Typography variant="body2" color="text.secondary" role="status" sx={{ mb: 3 }}>
        {AI_QUOTA_MESSAGES.loading}
      </Typography>
    );
  }
  if (quota.isError) {
    return (
      <Typography variant="body2" color="error" role="status" sx={{ mb: 3 }}>
        {AI_QUOTA_MESSAGES.failed}
      </Typography>
    );
  }
  const { headline, details } = describe(quota.data);
  const isOut = quota.data.providerCallsLeft === 0 || quota.data.perMinute.remaining === 0;
  return (
    <section aria-label="AI limits left" style={{ marginBottom: 24 }}>
      <Typography variant="body2" color={isOut ? 'error' : 'text.primary'} sx={{ fontWeight: 500 }}>
        {headline}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {details}
      </Typography>
    </section>
  );
}
