import { useNavigate } from 'react-router-dom';
import { Box, Button, Container, Stack, Step, StepContent, StepLabel, Stepper, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { markDemoSeen } from '../../lib/browser-storage.ts';
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

export function DemoRoute() {
  useDocumentTitle('How It Works');
  const navigate = useNavigate();
  const continueToCourses = () => {
    markDemoSeen();
    navigate('/courses');
  };

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom sx={{ fontSize: { xs: '2.2rem', md: '3rem' } }}>
        How It Works
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        From a question PDF to a saved grade, in six steps. You stay in charge of every grade.
      </Typography>
      <Stepper orientation="vertical" nonLinear activeStep={-1} component="ol" sx={{ pl: 0 }}>
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
      </Box>
    </Container>
  );
}
