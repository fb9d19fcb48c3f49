import { Card, CardContent, Container, Grid, Typography } from '@mui/material';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function AboutRoute() {
  useDocumentTitle('About');
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom sx={{ fontSize: { xs: '2.2rem', md: '3rem' } }}>
        About Gradewise
      </Typography>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
              <Typography variant="h5" component="h2" gutterBottom>
                Our Story
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                Gradewise started from a familiar problem: grading written work by hand takes instructors evenings and
                weekends, and students often wait a long time for feedback that ends up short.
              </Typography>
              <Typography color="text.secondary">
                We built a tool that does the first pass for you. It reads the question, the solution and each
                student&apos;s PDF, drafts a rubric and suggests comments with point deductions, and then gets out of
                the way so the instructor can decide.
              </Typography>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
              <Typography variant="h5" component="h2" gutterBottom>
                Our Mission
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                Give instructors back their time, and give every student detailed, personal feedback, without taking the
                grade out of the instructor&apos;s hands.
              </Typography>
              <Typography color="text.secondary">
                That is why Gradewise is free, runs on your school&apos;s own server, and treats every AI output as a
                suggestion you can accept, edit or decline.
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Container>
  );
}
