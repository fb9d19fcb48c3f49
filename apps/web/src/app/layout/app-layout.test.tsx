import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

describe('app layout', () => {
  it('puts the page footer under an ordinary screen', async () => {
    stubNetwork({});
    renderApp('/about');
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'FAQs' })).toHaveAttribute('href', '/faqs');
  });
});
