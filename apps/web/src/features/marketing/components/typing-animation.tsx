import { useEffect, useState } from 'react';
import { Box } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { visuallyHidden } from '../../../components/visually-hidden.ts';

/** Spec section 9: one character per 100 ms, the full text held for 1 s, interval option 3000 ms. */
export const TYPING_STEP_MS = 100;
export const FULL_TEXT_HOLD_MS = 1000;
export const DEFAULT_TAGLINE_INTERVAL_MS = 3000;

export interface TypingAnimationProps {
  texts: readonly string[];
  /**
   * The shortest time a tagline stays, counted from when its typing starts. A tagline that takes
   * longer to type than this still keeps its full text on screen for FULL_TEXT_HOLD_MS.
   */
  interval?: number;
}

const blink = keyframes`
  50% { opacity: 0; }
`;

/** How long a fully typed tagline stays before the next one starts typing. */
export function holdTimeMs(text: string, interval: number): number {
  return Math.max(FULL_TEXT_HOLD_MS, interval - text.length * TYPING_STEP_MS);
}

/**
 * Types each tagline one character at a time, holds it, then moves to the next, forever. Screen
 * readers get the whole current tagline at once instead of a stream of letters.
 */
export function TypingAnimation({ texts, interval = DEFAULT_TAGLINE_INTERVAL_MS }: TypingAnimationProps) {
  const [position, setPosition] = useState({ textIndex: 0, typedCount: 0 });
  const textIndex = texts.length > 0 ? position.textIndex % texts.length : 0;
  const text = texts[textIndex] ?? '';
  const isComplete = position.typedCount >= text.length;

  useEffect(() => {
    if (texts.length === 0) return;
    const timer = isComplete
      ? setTimeout(
          () => setPosition({ textIndex: (textIndex + 1) % texts.length, typedCount: 0 }),
          holdTimeMs(text, interval),
        )
      : setTimeout(() => setPosition({ textIndex, typedCount: position.typedCount + 1 }), TYPING_STEP_MS);
    return () => clearTimeout(timer);
  }, [texts.length, textIndex, text, isComplete, position.typedCount, interval]);

  return (
    <Box component="span">
      <Box component="span" aria-hidden="true" data-testid="typed-text">
        {text.slice(0, position.typedCount)}
      </Box>
      <Box
        component="span"
        aria-hidden="true"
        sx={{
          display: 'inline-block',
          width: '0.08em',
          height: '1em',
          ml: '0.08em',
          verticalAlign: '-0.1em',
          bgcolor: 'secondary.main',
          animation: `${blink} 1s step-end infinite`,
          '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
        }}
      />
      <Box component="span" sx={visuallyHidden}>
        {text}
      </Box>
    </Box>
  );
}
