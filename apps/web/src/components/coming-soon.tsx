import type { ReactNode } from 'react';
import { Alert, Box, Container, Typography } from '@mui/material';

export interface ComingSoonProps {
  title: string;
  /** One sentence on what this screen will do. */
  description: string;
  children?: ReactNode;
}

/** A placeholder for a screen that is planned but not built yet; it says so plainly. */
export function ComingSoon({ title, description, children }: ComingSoonProps) {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {description}
      </Typography>
      <Alert severity="info" variant="outlined">
        This screen is coming soon: it is not built yet.
      </Alert>
      {children ? <Box sx={{ mt: 3 }}>{children}</Box> : null}
    </Container>
  );
}
