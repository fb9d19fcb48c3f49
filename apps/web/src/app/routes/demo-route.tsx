import { useId } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Box, Button, Container, Paper, Stack, Step, StepContent, StepLabel, Stepper, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import SchoolIcon from '@mui/icons-material/School';
import { useCourses } from '../../features/courses/api/courses-api.ts';
import { markDemoSeen } from '../../lib/browser-storage.ts';
import { useSession } from '../../lib/session.tsx';
import { coursePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The product tour page shipped with the app (apps/web/public/tour.html): nothing external. */
export const TOUR_URL = '/tour.html';

const STEPS = [
  {
    label: 'Create a course',
    text: 'Give it a title, and optionally an image and a syllabus PDF. Add your students by email or from an Excel sheet.',
  },
  {
    label: 'Add assignments and questions',
    text: 'Create an assignment with an optional deadline, then upload each question as a PDF, with its solution if you have one.',
  },
  {
    label: 'Generate a rubric',
    text: 'Gradewise drafts a rubric from the question and solution. Edit it and preview it before you grade.',
  },
  {
    label: 'Collect submissions',
    text: 'Students submit their answers as PDFs, or you upload one on behalf of a student.',
  },
  {
    label: 'Review the suggested grading',
    text: 'For each submission Gradewise suggests comments with point deductions and a confidence level. Accept, edit, decline or add comments, regrade if you like, then save the final grade.',
  },
  {
    label: 'Share feedback',
    text: 'Students see their grade with the detailed comments you kept, in a grading report.',
  },
];

/** What to click in the demo course, in order (the tour page says the same, with more detail). */
const DEMO_COURSE_STEPS = [
  'Open Homework 1, then a question (Uniform acceleration is the quickest).',
  'Generate Rubric, check the items in the wizard and save them.',
  'Grade All, and watch the progress bar.',
  'Review: the queue starts with the answers the grader is least sure of. Accept, decline or edit the comments, then Save Grade.',
  'Look for the hidden-text warning and the scanned answer read by OCR, then Download Grades (CSV).',
];

export function DemoRoute() {
  useDocumentTitle('How It Works');
  const navigate = useNavigate();
  const continueToCourses = () => {
    markDemoSeen();
    navigate('/courses');
  };
  const { user, isAuthenticated } = useSession();
  // Only an instructor's list can hold the demo course they own (`npm run demo` loads it).
  const courses = useCourses({ enabled: user?.role === 'instructor' });
  const demoCourse = courses.data?.find((course) => course.isDemo);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom sx={{ fontSize: { xs: '2.2rem', md: '3rem' } }}>
        How It Works
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        From a question PDF to a saved grade, in six steps. You stay in charge of every grade.
      </Typography>
      {demoCourse ? <DemoCourseCard courseId={demoCourse._id} title={demoCourse.title} /> : null}
      {/* No connector: MUI draws it as a div between the steps, which an ordered list may not hold (axe). */}
      <Stepper orientation="vertical" nonLinear activeStep={-1} component="ol" connector={null} sx={{ pl: 0 }}>
        {STEPS.map((step) => (
          <Step key={step.label} active completed={false} component="li" sx={{ listStyle: 'none' }}>
            <StepLabel>
              <Typography variant="h6" component="h2">
                {step.label}
              </Typography>
            </StepLabel>
            <StepContent>
              <Typography color="text.secondary">{step.text}</Typography>
            </StepContent>
          </Step>
        ))}
      </Stepper>
      <Box sx={{ mt: 5 }}>
        {isAuthenticated ? (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Button
                variant="contained"
                size="large"
                href={TOUR_URL}
                target="_blank"
                rel="noopener noreferrer"
                endIcon={<OpenInNewIcon aria-hidden />}
                onClick={continueToCourses}
              >
                View Demo
              </Button>
              <Button variant="outlined" size="large" onClick={continueToCourses}>
                Skip Demo
              </Button>
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
              View Demo opens the guided tour in a new tab and takes you to your courses here.
            </Typography>
          </>
        ) : (
          <>
            {/* Signed out there are no courses to go to: the tour opens on its own, and the other
                buttons lead to signing in, rather than to /courses and straight back home. */}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Button
                variant="contained"
                size="large"
                href={TOUR_URL}
                target="_blank"
                rel="noopener noreferrer"
                endIcon={<OpenInNewIcon aria-hidden />}
              >
                View Demo
              </Button>
              <Button component={RouterLink} to="/login" variant="outlined" size="large">
                Login
              </Button>
              <Button component={RouterLink} to="/register" variant="outlined" size="large">
                Register
              </Button>
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
              View Demo opens the guided tour in a new tab. Log in or register to try it on your own courses.
            </Typography>
          </>
        )}
      </Box>
    </Container>
  );
}

/** The demo instructor's shortcut into the running demo course, with what to try there. */
function DemoCourseCard({ courseId, title }: { courseId: string; title: string }) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, mb: 5, borderColor: 'primary.main', borderWidth: 2 }}
    >
      <Typography id={headingId} variant="h5" component="h2" gutterBottom>
        Your demo course is ready
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {title} has a homework with three questions and answers from a whole class: full, partial and wrong ones, a
        blank one, a late one, a scanned one and one that hides instructions for the grader. Try this, in order:
      </Typography>
      <Box component="ol" sx={{ pl: 3, mt: 0, mb: 2.5, color: 'text.secondary' }}>
        {DEMO_COURSE_STEPS.map((step) => (
          <li key={step}>
            <Typography variant="body2" component="span">
              {step}
            </Typography>
          </li>
        ))}
      </Box>
      <Button
        component={RouterLink}
        to={coursePath(courseId)}
        variant="contained"
        color="secondary"
        size="large"
        startIcon={<SchoolIcon aria-hidden />}
        onClick={markDemoSeen}
      >
        Open the demo course
      </Button>
    </Paper>
  );
}
