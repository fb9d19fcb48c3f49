/*
 * The grading screen's code and first reads, asked for as the page starts (decision 0109). Loaded
 * by index.html (async, high priority) on every page, before the app's scripts have arrived; it does
 * something only on a grading screen's address
 * (`/assignments/:assignmentId/questions/:questionId/grade/:submissionId`, the route of
 * app/router.tsx), from the lists the build writes into the page's <meta> elements
 * (build/grading-screen-files.ts):
 * - a `modulepreload` link for each file the screen's route and dialog import that the app's entry
 *   does not, and a font `preload` link for the title's font, which the route waits for before it
 *   draws (decision 0111: else the browser asks for it only once the entry has run);
 * - with a stored session (and the measuring switch `noPrefetch` not set), the session's check of the
 *   token and the screen's first reads (app/grading-screen-first-reads.ts; the queue only with
 *   `?queue=1`), sent as the app's API
 *   client sends them, and left in `window.gradewiseEarlyReads`, whose answers the client takes
 *   (lib/api-client.ts) instead of asking again. If the app's code already runs
 *   (`window.gradewiseAppStarted`), its route has sent them: nothing is sent twice.
 * Without those elements (the dev server) it does nothing. Plain JavaScript served as is from
 * public/: it loads no module of the app, so it runs as soon as it arrives, not after the app's
 * libraries.
 */
/* global window, document, fetch, URLSearchParams */
(function startGradingScreen() {
  var GRADING_SCREEN = /^\/assignments\/([^/]+)\/questions\/([^/]+)\/grade\/([^/]+)\/?$/;
  var address = GRADING_SCREEN.exec(window.location.pathname);
  if (!address) return;
  var listed = function listed(name) {
    var element = document.querySelector('meta[name="gradewise-grading-screen-' + name + '"]');
    return element ? element.getAttribute('content').split(' ').filter(Boolean) : null;
  };

  (listed('fonts') || []).forEach(function addFontPreload(href) {
    var link = document.createElement('link');
    link.setAttribute('rel', 'preload');
    link.setAttribute('as', 'font');
    link.setAttribute('type', 'font/woff2');
    // Fonts are fetched in CORS mode: without it the preloaded file would not be the one used.
    link.setAttribute('crossorigin', 'anonymous');
    link.setAttribute('href', href);
    document.head.appendChild(link);
  });

  (listed('files') || []).forEach(function addPreload(href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.appendChild(link);
  });

  var session = listed('session');
  var reads = listed('reads');
  if (!session || !reads || window.gradewiseAppStarted) return;
  var token = null;
  try {
    token = window.localStorage.getItem(session[1]);
    if (window.localStorage.getItem(session[2]) !== null) return;
  } catch {
    return;
  }
  if (!token) return;
  if (new URLSearchParams(window.location.search).get('queue') === '1')
    reads = reads.concat(listed('queue-reads') || []);
  // The ids as the route reads them (decoded), written as apiPaths writes them (encoded); an
  // address that does not decode is left to the app.
  var ids;
  try {
    ids = {
      __assignmentId__: encodeURIComponent(decodeURIComponent(address[1])),
      __questionId__: encodeURIComponent(decodeURIComponent(address[2])),
      __submissionId__: encodeURIComponent(decodeURIComponent(address[3])),
    };
  } catch {
    return;
  }
  var sent = [];
  for (var index = 0; index + 1 < reads.length; index += 2) {
    var method = reads[index];
    var path = reads[index + 1].replace(/__(assignmentId|questionId|submissionId)__/g, function id(marker) {
      return ids[marker];
    });
    var response = fetch(session[0] + path, {
      method: method,
      headers: { Accept: 'application/json', Authorization: 'Bearer ' + token },
    });
    // A failure is the app's to report when it takes the answer; untaken, nobody's.
    response.catch(function ignore() {});
    sent.push({ method: method, path: path, token: token, sentAt: Date.now(), response: response });
  }
  window.gradewiseEarlyReads = sent;
})();
