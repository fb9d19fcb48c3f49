import type { ReactNode } from 'react';
import { Container, Paper, Typography } from '@mui/material';

/** The narrow card that login and register share. */
export function AuthPageFrame({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {footer}
        </Typography>
      </Paper>
    </Container>
  );
}
