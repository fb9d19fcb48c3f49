import { Link as RouterLink } from 'react-router-dom';
import {
  Button,
  Card,
  CardActions,
  CardContent,
  Container,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const INCLUDED = [
  'Unlimited courses, assignments and questions',
  'AI-generated, editable rubrics',
  'AI-suggested comments and point deductions with a confidence level',
  'Grading reports for students',
  'Runs on your own server: your data stays with you',
];

export function PricingRoute() {
  useDocumentTitle('Pricing');
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography
        variant="h3"
        component="h1"
        gutterBottom
        align="center"
        sx={{ fontSize: { xs: '2.2rem', md: '3rem' } }}
      >
        Pricing
      </Typography>
      <Typography color="text.secondary" align="center" sx={{ mb: 4 }}>
        One plan, with everything in it.
      </Typography>
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h3" component="h2" sx={{ fontWeight: 700 }}>
            Free
          </Typography>
          {/* A line of text, not MUI's default h6 for subtitle1: no heading level is skipped (axe). */}
          <Typography variant="subtitle1" component="p" color="primary" sx={{ mb: 1 }}>
            Full access
          </Typography>
          <Typography color="text.secondary">
            Gradewise is free to use. Every feature is included; there is no paid tier.
          </Typography>
          <List dense sx={{ mt: 2 }}>
            {INCLUDED.map((item) => (
              <ListItem key={item} disableGutters>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <CheckIcon color="primary" aria-hidden />
                </ListItemIcon>
                <ListItemText primary={item} />
              </ListItem>
            ))}
          </List>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            If your school connects an external AI provider, that provider may charge for its use.
          </Typography>
        </CardContent>
        <CardActions sx={{ px: { xs: 3, sm: 4 }, pb: { xs: 3, sm: 4 } }}>
          <Button component={RouterLink} to="/register" variant="contained" size="large" fullWidth>
            Get Started
          </Button>
        </CardActions>
      </Card>
    </Container>
  );
}
