import { Box, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import SchoolIcon from '@mui/icons-material/School';

const spin = keyframes`
  from { transform: rotate(0deg); }
  to { transform: rotate(360deg); }
`;

export interface LoadingIconProps {
  /** Icon size in pixels. */
  size?: number;
  /** What is loading, for screen readers. */
  label?: string;
}

/** The loading indicator: a graduation cap turning once every 30 seconds (spec section 9). */
export function LoadingIcon({ size = 80, label = 'Loading' }: LoadingIconProps) {
  return (
    <Box role="status" aria-label={label} sx={{ display: 'inline-flex', lineHeight: 0 }}>
      <SchoolIcon
        aria-hidden
        color="primary"
        sx={{
          fontSize: size,
          animation: `${spin} 30s linear infinite`,
          '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
        }}
      />
    </Box>
  );
}

/** A loading icon centred in the page area, for whole screens that are not ready yet. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        justifyContent: 'center',
        alignItems: 'center',
        minHeight: '40vh',
        py: 6,
      }}
    >
      <LoadingIcon label={label} />
      {/* Said in words too, for sighted readers (the status role above already announces it). */}
      <Typography color="text.secondary" aria-hidden>
        {label}…
      </Typography>
    </Box>
  );
}
