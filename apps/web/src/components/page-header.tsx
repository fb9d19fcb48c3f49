import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';

export interface PageHeaderProps {
  title: ReactNode;
  /** A line under the title (course of an assignment, deadline...). */
  subtitle?: ReactNode;
  /** Buttons for the screen's main actions; they wrap under the title on phones. */
  actions?: ReactNode;
  /** A link back up the hierarchy, shown above the title. */
  back?: { to: string; label: string };
}

/** The top of every content screen: one h1, what it belongs to, and its main actions. */
export function PageHeader({ title, subtitle, actions, back }: PageHeaderProps) {
  return (
    <Box component="header" sx={{ mb: 3 }}>
      {back ? (
        <Button
          component={RouterLink}
          to={back.to}
          size="small"
          startIcon={<ArrowBackIcon />}
          sx={{ mb: 1, ml: -1, textTransform: 'none' }}
        >
          {back.label}
        </Button>
      ) : null}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'flex-start' } }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography
            variant="h4"
            component="h1"
            sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' }, overflowWrap: 'anywhere' }}
          >
            {title}
          </Typography>
          {subtitle ? (
            <Typography color="text.secondary" component="div" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          ) : null}
        </Box>
        {actions ? (
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ flexWrap: 'wrap', flexShrink: 0, justifyContent: { xs: 'flex-start', sm: 'flex-end' } }}
          >
            {actions}
          </Stack>
        ) : null}
      </Stack>
    </Box>
  );
}
