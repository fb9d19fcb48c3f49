import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as renderElement, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppToasts, showSuccessWithUndo, undoFromToast } from './toasts.tsx';

/** The toasts in the app's query cache, as AppProviders places them (they wait for its reads). */
function render(element: ReactNode) {
  const queryClient = new QueryClient();
  return renderElement(<QueryClientProvider client={queryClient}>{element}</QueryClientProvider>);
}

describe('a toast that offers Undo', () => {
  it('runs Undo once from its button, and U has nothing left to undo', async () => {
    render(<AppToasts />);
    const onUndo = vi.fn();
    showSuccessWithUndo('Grade saved successfully!', onUndo);
    const undo = await screen.findByRole('button', { name: 'Undo' });
    await userEvent.click(undo);
    expect(onUndo).toHaveBeenCalledTimes(1);
    expect(undoFromToast()).toBe(false);
    expect(onUndo).toHaveBeenCalledTimes(1);
  });

  it('offers only the latest save: a newer toast replaces the earlier one, and U undoes the newer', async () => {
    render(<AppToasts />);
    const first = vi.fn();
    const second = vi.fn();
    showSuccessWithUndo('Grade saved successfully!', first);
    await screen.findByRole('button', { name: 'Undo' });
    showSuccessWithUndo('Grade saved successfully!', second);
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Undo' })).toHaveLength(1));
    expect(undoFromToast()).toBe(true);
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    expect(undoFromToast()).toBe(false);
  });

  it('stays in the accessibility tree when a modal hides the rest of the page', async () => {
    render(<AppToasts />);
    const layer = document.querySelector<HTMLElement>('[data-toast-layer]');
    expect(layer?.parentElement).toBe(document.body);
    layer!.setAttribute('aria-hidden', 'true');
    await waitFor(() => expect(layer!.hasAttribute('aria-hidden')).toBe(false));
  });
});

describe('toasts before their library has loaded', () => {
  it('shows a toast asked for while react-toastify is still loading, once it has loaded', async () => {
    // A fresh copy of the module: the test setup has loaded the library for every other test.
    vi.resetModules();
    const fresh = await import('./toasts.tsx');
    render(<fresh.AppToasts />);
    fresh.showError('Failed to fetch courses.');
    expect(await screen.findByText('Failed to fetch courses.')).toBeInTheDocument();
  });
});
