import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TypingAnimation } from './typing-animation.tsx';

const typed = () => screen.getByTestId('typed-text').textContent;
/**
 * Each timer is set by an effect after the render its predecessor caused, so the clock moves one
 * millisecond at a time and React renders in between, exactly as it would in a browser.
 */
function advance(ms: number) {
  for (let step = 0; step < ms; step += 1) act(() => vi.advanceTimersByTime(1));
}

// 40 characters: typing takes 4 s, longer than the 3 s interval, so the 1 s hold applies.
const LONG = 'Grading that keeps you in control, always';
const SHORT = 'Fast.';

describe('typing animation', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('types one character every 100 ms', () => {
    render(<TypingAnimation texts={[LONG, SHORT]} />);
    expect(typed()).toBe('');
    advance(100);
    expect(typed()).toBe('G');
    advance(99);
    expect(typed()).toBe('G');
    advance(1);
    expect(typed()).toBe('Gr');
    advance(100 * (LONG.length - 2));
    expect(typed()).toBe(LONG);
  });

  it('holds the full text for 1 second, then starts the next tagline', () => {
    render(<TypingAnimation texts={[LONG, SHORT]} />);
    advance(100 * LONG.length);
    expect(typed()).toBe(LONG);
    advance(999);
    expect(typed()).toBe(LONG);
    advance(1);
    expect(typed()).toBe('');
    advance(100);
    expect(typed()).toBe('F');
  });

  it('keeps a short tagline up until the 3000 ms interval has passed since it started', () => {
    render(<TypingAnimation texts={[SHORT, LONG]} />);
    advance(100 * SHORT.length);
    expect(typed()).toBe(SHORT);
    advance(3000 - 100 * SHORT.length - 1);
    expect(typed()).toBe(SHORT);
    advance(1);
    expect(typed()).toBe('');
  });

  it('honours a custom interval and cycles back to the first tagline', () => {
    render(<TypingAnimation texts={[SHORT, 'Go.']} interval={6000} />);
    advance(6000 - 1);
    expect(typed()).toBe(SHORT);
    advance(1);
    advance(6000);
    expect(typed()).toBe('');
    advance(100);
    expect(typed()).toBe('F');
  });

  it('gives screen readers the whole tagline, not the letters as they appear', () => {
    render(<TypingAnimation texts={[LONG, SHORT]} />);
    advance(300);
    expect(screen.getByTestId('typed-text')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText(LONG)).toBeInTheDocument();
  });
});
