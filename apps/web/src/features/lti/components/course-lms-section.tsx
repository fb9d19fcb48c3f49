import { useId } from 'react';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { CourseLmsLink } from '@gradewise/shared/contracts/lti';
import { ErrorMessage, LoadingMessage, RETRY_LABEL } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { LTI_MESSAGES, useCourseLmsLinks, useSyncLtiRoster } from '../api/lti-api.ts';

/**
 * The course's LMS (decisions 0074, 0076), for its staff: the LMS courses linked to it, when the
 * roster was last synced (launches sync it at most once an hour) and who the syncs found; the owner
 * syncs it now. Nothing shows for a course no LMS course is linked to.
 */
export function CourseLmsSection({ courseId, isOwner }: { courseId: string; isOwner: boolean }) {
  const headingId = useId();
  const links = useCourseLmsLinks(courseId);
  const sync = useSyncLtiRoster(courseId);
  if (links.isSuccess && links.data.links.length === 0) return null;

  const offersRoster = links.data?.links.some((link) => link.offersRoster) ?? false;
  const syncNow = () =>
    sync.mutate(undefined, {
      onSuccess: (result) => showSuccess(result.message),
      onError: (error) => showError(messageOf(error, LTI_MESSAGES.rosterSyncFailed), error),
    });
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, my: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2">
            LMS
          </Typography>
          <Typography color="text.secondary">
            The roster comes from the LMS at a launch (at most once an hour) or when you sync it; released grades go
            back to it by themselves.
          </Typography>
        </Box>
        {isOwner && offersRoster ? (
          <Button
            variant="outlined"
            startIcon={<SyncIcon />}
            disabled={sync.isPending}
            onClick={syncNow}
            sx={{ flexShrink: 0 }}
          >
            {sync.isPending ? 'Syncing roster…' : 'Sync roster now'}
          </Button>
        ) : null}
      </Stack>
      {links.isPending ? <LoadingMessage compact text="Loading the linked LMS courses…" /> : null}
      {links.isError ? (
        <ErrorMessage
          text={messageOf(links.error, LTI_MESSAGES.courseLinksFailed)}
          action={
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={() => void links.refetch()}>
              {RETRY_LABEL}
            </Button>
          }
        />
      ) : null}
      {links.isSuccess ? (
        <Box component="ul" aria-label="Linked LMS courses" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
          {links.data.links.map((link) => (
            <LinkItem key={`${link.lms}-${link.lmsCourse}`} link={link} />
          ))}
        </Box>
      ) : null}
    </Paper>
  );
}

function LinkItem({ link }: { link: CourseLmsLink }) {
  const roster = !link.offersRoster
    ? 'This LMS course does not offer its roster.'
    : link.rosterSyncedAt
      ? `Roster synced ${formatDateTime(link.rosterSyncedAt)}: ${link.active} in the course${link.left > 0 ? `, ${link.left} left` : ''}.`
      : 'Roster not synced yet.';
  return (
    <Box component="li" sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
      <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {link.lmsCourse}
        <Typography component="span" color="text.secondary">{` · ${link.lms}`}</Typography>
      </Typography>
      <Typography color="text.secondary">
        {roster} {link.takesGrades ? 'Takes grades.' : 'Does not take grades.'}
      </Typography>
    </Box>
  );
}
