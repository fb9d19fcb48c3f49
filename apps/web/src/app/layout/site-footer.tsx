import { Link as RouterLink } from 'react-router-dom';
import { Box, Container, Link, Stack, Typography } from '@mui/material';

const FOOTER_LINKS = [
  { label: 'About', to: '/about' },
  { label: 'FAQs', to: '/faqs' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'How it works', to: '/demo' },
];

export function SiteFooter() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 3, mt: 'auto' }}>
      <Container
        maxWidth="lg"
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          gap: 2,
          justifyContent: 'space-between',
          alignItems: { xs: 'flex-start', sm: 'center' },
        }}
      >
        <Typography variant="body2" color="text.secondary">
          © {new Date().getFullYear()} Gradewise · AI-assisted grading that runs on your own server.
        </Typography>
        <Stack component="nav" aria-label="Footer" direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {FOOTER_LINKS.map((link) => (
            <Link
              key={link.to}
              component={RouterLink}
              to={link.to}
              variant="body2"
              color="text.secondary"
              underline="hover"
            >
              {link.label}
            </Link>
          ))}
        </Stack>
      </Container>
    </Box>
  );
}
