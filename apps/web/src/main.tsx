import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app/app.tsx';
import { startSessionCheckEarly } from './lib/session.tsx';

// Before the first render, so signed-in screens do not wait for it to ask who is signed in.
startSessionCheckEarly();
// Then the router, whose loaders start the first screen's request beside that check (decision 0059).
const app = startApp();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

const root = createRoot(container);
// A transition: React renders the first tree in slices, yielding to the browser between them,
// instead of in one long task (decision 0051).
startTransition(() => {
  root.render(
    <StrictMode>
      <App app={app} />
    </StrictMode>,
  );
});
