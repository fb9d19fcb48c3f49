import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * What the tests need from the system, and nothing else: Debian's Chromium for the browser
 * journeys (no browser can be downloaded here; Playwright drives the system's). When it is
 * missing, `npm test` installs it itself where it can (as root, with apt-get), saying so in one
 * line; elsewhere it says in one sentence what to run, instead of letting Playwright fail with a
 * stack trace. CHROMIUM_PATH names another executable; it is never installed over.
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

const whatToRun = process.env.CHROMIUM_PATH
  ? `Browser tests need Chromium: CHROMIUM_PATH is ${chromiumPath}, which is not an executable; point it at Chromium, or unset it and run \`sudo apt-get install chromium\` (Debian/Ubuntu).`
  : 'Browser tests need Chromium: run `sudo apt-get install chromium` (Debian/Ubuntu) so that /usr/bin/chromium exists, or set CHROMIUM_PATH to a Chromium executable.';

if (!isExecutable(chromiumPath)) {
  const canInstall =
    !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && isExecutable('/usr/bin/apt-get') && install();
  if (!canInstall || !isExecutable(chromiumPath)) {
    console.error(whatToRun);
    process.exit(1);
  }
}

/** apt-get update, then install Chromium; its own output only when it fails. */
function install() {
  console.log('Chromium is missing: installing it with apt-get (apt-get update && apt-get install -y chromium).');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8' });
    if (result.status !== 0) {
      process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-15).join('\n'));
      console.error(`apt-get ${args[0]} failed.`);
      return false;
    }
  }
  return true;
}
