import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, CardContent, Container, Grid, Typography } from '@mui/material';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import RateReviewIcon from '@mui/icons-material/RateReview';
import TuneIcon from '@mui/icons-material/Tune';
import { TypingAnimation } from '../../features/marketing/components/typing-animation.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useSession } from '../../lib/session.tsx';

export const TAGLINES = [
  'Aims to turn a week of grading into minutes.',
  'Rubrics drafted automatically for every question.',
  'Detailed, personal feedback for every student.',
] as const;

const HIGHLIGHTS = [
  {
    icon: FactCheckIcon,
    title: 'Rubrics from your PDFs',
    text: 'Upload a question and its solution; Gradewise drafts a rubric you can edit.',
  },
  {
    icon: RateReviewIcon,
    title: 'Suggested comments',
    text: 'Each submission gets review comments with point deductions and a confidence level.',
  },
  {
    icon: TuneIcon,
    title: 'Your call, always',
    text: 'Accept, edit or decline every suggestion. Nothing is a grade until you save it.',
  },
];

const WelcomeDialog = lazy(async () => ({
  default: (await import('../../features/marketing/components/welcome-dialog.tsx')).WelcomeDialog,
}));
export function HomeRoute() {
  useDocumentTitle('');
  const { isAuthenticated } = useSession();
  const [isWelcomeOpen, setWelcomeOpen] = useState(false);
  const hasOpenedWelcome = useHasBeenTrue(isWelcomeOpen);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 6, md: 12 } }}>
      <Box sx={{ textAlign: 'center', maxWidth: 760, mx: 'auto' }}>
        <Typography
          variant="h2"
          component="h1"
          sx={{ fontWeight: 700, fontSize: { xs: '2.75rem', md: '4rem' }, color: 'primary.main' }}
        >
          Gradewise
        </Typography>
        <Typography
          variant="h5"
          component="p"
          sx={{ mt: 2, minHeight: { xs: '4em', sm: '2.5em' }, fontSize: { xs: '1.25rem', md: '1.6rem' } }}
        >
          <TypingAnimation texts={TAGLINES} />
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 2, mb: 4 }}>
          AI-assisted grading for instructors and students, running on your own server.
        </Typography>
        {isAuthenticated ? (
          <Button component={RouterLink} to="/courses" variant="contained" size="large" color="secondary">
            view courses
          </Button>
        ) : (
          <Button variant="contained" size="large" color="secondary" onClick={() => setWelcomeOpen(true)}>
            try Gradewise
          </Button>
        )}
      </Box>

      <Grid container spacing={3} sx={{ mt: { xs: 6, md: 10 } }}>
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <Grid key={title} size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Icon color="primary" aria-hidden sx={{ fontSize: 36, mb: 1 }} />
                <Typography variant="h6" component="h2" gutterBottom>
                  {title}
                </Typography>
                <Typography color="text.secondary">{text}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>

      {/* Loaded the first time it opens: the landing page's first paint does not wait for MUI's Dialog. */}
      {hasOpenedWelcome ? (
        <Suspense fallback={null}>
          <WelcomeDialog open={isWelcomeOpen} onClose={() => setWelcomeOpen(false)} />
        </Suspense>
      ) : null}
    </Container>
  );
}

/** True from the first time `value` is true on: keeps a lazily loaded dialog mounted after it closes. */
function useHasBeenTrue(value: boolean): boolean {
  const [hasBeenTrue, setHasBeenTrue] = useState(value);
  if (value && !hasBeenTrue) setHasBeenTrue(true);
  return hasBeenTrue || value;
}
