import { render, screen } from '@testing-library/react';
import { useTheme } from '@mui/material/styles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMatchMedia } from '../test/match-media.ts';
import { AppProviders } from './providers.tsx';
import { REDUCED_MOTION_QUERY } from './theme.ts';

function TransitionProbe() {
  const theme = useTheme();
  return (
    <p>
      {`transition: ${theme.transitions.create('height')}; entering: ${theme.transitions.duration.enteringScreen}; auto height: ${theme.transitions.getAutoHeightDuration(400)}`}
    </p>
  );
}

describe('the app theme and the reduced-motion setting', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('animates panels and dialogs by default', () => {
    stubMatchMedia(() => false);
    render(
      <AppProviders>
        <TransitionProbe />
      </AppProviders>,
    );
    const text = screen.getByText(/^transition:/).textContent!;
    expect(text).toMatch(/^transition: height \d+ms/);
    expect(text).not.toContain('entering: 0;');
    expect(text).not.toMatch(/auto height: 0$/);
  });

  it('shows panels and dialogs at once, with no transition, for people who asked for less motion', () => {
    stubMatchMedia((query) => query === REDUCED_MOTION_QUERY);
    render(
      <AppProviders>
        <TransitionProbe />
      </AppProviders>,
    );
    expect(screen.getByText(/^transition:/)).toHaveTextContent('transition: none; entering: 0; auto height: 0');
  });
});
