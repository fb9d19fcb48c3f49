import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
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
import { EmptyMessage, ErrorMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { assignmentQueries } from '../../../lib/queries/assignments.ts';
import { courseQueries } from '../../../lib/queries/courses.ts';
import { useSession } from '../../../lib/session.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { ltiApiPaths } from '../api/lti-api.ts';

/**
 * The LMS's "add external tool" dialog (Deep Linking): the instructor picks one of their
 * assignments (of the linked course, when the LMS course is linked); a plain form post then answers
 * the LMS (the server's page form-posts the signed link back to it).
 */
export function LtiDeepLinkScreen() {
  useDocumentTitle('Add a Gradewise assignment');
  const location = useLocation();
  const parsed = LtiLanding.safeParse(location.state);
  const landing = parsed.success && parsed.data.kind === 'deep-link' ? parsed.data : null;
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader title="Add a Gradewise assignment" />
      {landing ? (
        <Picker code={landing.code} courseId={landing.courseId} contextTitle={landing.contextTitle} />
      ) : (
        <ErrorMessage text="This page opens from your LMS's “add external tool” dialog. Please start again there." />
      )}
    </Container>
  );
}

function Picker({ code, courseId, contextTitle }: { code: string; courseId: string | null; contextTitle: string }) {
  const { user } = useSession();
  const courses = useQuery(courseQueries.list());
  const assignments = useQuery(assignmentQueries.list(courseId ?? undefined));
  const [choice, setChoice] = useState('');
  if (courses.isPending || assignments.isPending) return <LoadingMessage text="Loading your assignments…" />;
  if (courses.isError || assignments.isError) {
    const failed = courses.error ?? assignments.error;
    return (
      <LoadFailedMessage
        error={failed}
        notFoundText="Assignments not found."
        failedText="Could not load your assignments."
        onRetry={() => void Promise.all([courses.refetch(), assignments.refetch()])}
      />
    );
  }
  const owned = new Set(
    courses.data.filter((course) => course.instructor._id === user?.id).map((course) => course._id),
  );
  const choices = assignments.data.filter((assignment) => owned.has(assignment.course._id));
  if (choices.length === 0) {
    return (
      <EmptyMessage text="You have no assignment to add yet. Create one in Gradewise, then add it from your LMS." />
    );
  }
  return (
    <Paper
      variant="outlined"
      component="form"
      method="post"
      action={ltiApiPaths.deepLinks}
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Stack spacing={2}>
        <Typography>
          Pick the assignment <strong>{contextTitle}</strong> links to. Its points become the LMS grade column's
          maximum.
        </Typography>
        <input type="hidden" name="code" value={code} />
        <FormControl>
          <FormLabel id="lti-deep-link-choice">Assignment</FormLabel>
          <RadioGroup
            aria-labelledby="lti-deep-link-choice"
            name="assignmentId"
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
          >
            {choices.map((assignment) => (
              <FormControlLabel
                key={assignment._id}
                value={assignment._id}
                control={<Radio required />}
                label={`${assignment.title} · ${assignment.course.title} · ${assignment.points} points`}
              />
            ))}
          </RadioGroup>
        </FormControl>
        <Button type="submit" variant="contained" disabled={!choice}>
          Add to the LMS
        </Button>
      </Stack>
    </Paper>
  );
}
