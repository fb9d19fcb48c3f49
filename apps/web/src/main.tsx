import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app/app.tsx';
import { startSessionCheckEarly } from './lib/session.tsx';

// Before the first render, so signed-in screens do not wait for it to ask who is signed in.
startSessionCheckEarly();

/**
 * The router (whose loaders start the first screen's requests, decision 0059) and the first render,
 * in the task after the modules' evaluation rather than in it (decision 0123): the evaluation is the
 * page's longest task, and Lighthouse counts each task's time over 50 ms at 4x, so a part that runs
 * as a task of its own under about 12 ms blocks nothing. The grading screen's first reads are
 * already out (public/grading-screen-early.js), and the session check above is sent in this one.
 */
function startRendering() {
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
}
setTimeout(startRendering);
