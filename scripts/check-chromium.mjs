import fs from 'node:fs';

/**
 * Browser tests drive the Debian Chromium (no browser can be downloaded here). Say in one
 * sentence what to do when it is missing, instead of letting Playwright fail with a stack trace.
 */
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

if (!isExecutable(chromiumPath)) {
  console.error(
    'Browser tests need Chromium: install it (apt-get install chromium) so that /usr/bin/chromium exists, or set CHROMIUM_PATH to a Chromium executable.',
  );
  process.exit(1);
}
