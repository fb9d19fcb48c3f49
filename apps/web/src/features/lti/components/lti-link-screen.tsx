import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Container,
  FormControl,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { LtiLanding } from '@gradewise/shared/contracts/lti';
import { PageHeader } from '../../../components/page-header.tsx';
import { ErrorMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { coursePath } from '../../../lib/paths.ts';
import { courseQueries } from '../../../lib/queries/courses.ts';
import { useSession } from '../../../lib/session.tsx';
import { showSuccess } from '../../../lib/toasts.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useLinkContext } from '../api/lti-api.ts';

const CREATE = 'create';

/**
 * The first launch from an LMS course: its instructor links it to a Gradewise course they own, or
 * creates one named after it. The LMS course comes in the history state the landing left.
 */
export function LtiLinkScreen() {
  useDocumentTitle('Link your LMS course');
  const location = useLocation();
  const parsed = LtiLanding.safeParse(location.state);
  const landing = parsed.success && parsed.data.kind === 'link' ? parsed.data : null;
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader title="Link your LMS course" />
      {landing ? (
        <LinkForm contextId={landing.contextId} contextTitle={landing.contextTitle} />
      ) : (
        <ErrorMessage text="This page opens when you launch Gradewise from a new LMS course. Please launch it again from your course." />
      )}
    </Container>
  );
}

function LinkForm({ contextId, contextTitle }: { contextId: string; contextTitle: string }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const courses = useQuery(courseQueries.list());
  const link = useLinkContext(contextId);
  const [choice, setChoice] = useState(CREATE);
  const owned = (courses.data ?? []).filter((course) => course.instructor._id === user?.id && !course.isDemo);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    link.mutate(choice === CREATE ? { create: true } : { courseId: choice }, {
      onSuccess: (result) => {
        showSuccess(result.message);
        navigate(coursePath(result.courseId), { replace: true });
      },
    });
  };
  if (courses.isPending) return <LoadingMessage text="Loading your courses…" />;
  if (courses.isError) {
    return (
      <LoadFailedMessage
        error={courses.error}
        notFoundText="Courses not found."
        failedText="Could not load your courses."
        onRetry={() => void courses.refetch()}
      />
    );
  }
  return (
    <Paper variant="outlined" component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography>
          <strong>{contextTitle}</strong> in your LMS is not linked to Gradewise yet. Launches from it will open the
          course you choose here.
        </Typography>
        <FormControl>
          <FormLabel id="lti-link-choice">Open this LMS course in</FormLabel>
          <RadioGroup
            aria-labelledby="lti-link-choice"
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
          >
            <FormControlLabel value={CREATE} control={<Radio />} label={`A new course named “${contextTitle}”`} />
            {owned.map((course) => (
              <FormControlLabel key={course._id} value={course._id} control={<Radio />} label={course.title} />
            ))}
          </RadioGroup>
          {owned.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              You have no Gradewise course of your own yet: a new one is created.
            </Typography>
          )}
        </FormControl>
        {link.isError && (
          <Alert severity="error" role="alert">
            {messageOf(link.error, 'Could not link the LMS course.')}
          </Alert>
        )}
        <Button type="submit" variant="contained" disabled={link.isPending}>
          {link.isPending ? 'Linking…' : choice === CREATE ? 'Create and link' : 'Link this course'}
        </Button>
      </Stack>
    </Paper>
  );
}
