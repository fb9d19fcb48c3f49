import type { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { found, ok, pageFor, seedQuestion, watchPage } from './support.ts';

/**
 * Roboto's core faces (apps/web/src/fonts/roboto-core.css, decision 0134): ASCII and the app's
 * punctuation in files of about 13 KB a weight, declared after fontsource's Latin faces (about 22
 * KB), so a page of such text loads only the core files and a page with another Latin character
 * also loads the Latin file, and draws that character in Roboto too.
 */

const manifest = JSON.parse(
  fs.readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/fonts/roboto-core.json'),
    'utf8',
  ),
) as { unicodeRange: string; faces: { weight: number }[] };

/** The Roboto files a page asks for, by name without the build's hash ("roboto-core-500-normal"). */
function recordFonts(page: Page) {
  const fonts: string[] = [];
  page.on('request', (request) => {
    const name = /\/assets\/(roboto-[\w-]+-normal)-[\w-]+\.woff2?$/.exec(new URL(request.url()).pathname)?.[1];
    if (name) fonts.push(name);
  });
  return fonts;
}

/** The fonts Chromium drew an element's text with (DevTools' "Rendered Fonts"), once the page's font loads are done. */
async function renderedFonts(page: Page, element: Locator): Promise<string[]> {
  await element.evaluate((node) => node.setAttribute('data-font-probe', ''));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-probe]' });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts.map((font) => font.familyName);
}

test('the page declares each weight core face after its Latin face, with the subset range', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const faces = [...html.matchAll(/@font-face\s*\{([^}]*)\}/g)].map((match) => match[1]!);
  const range = manifest.unicodeRange.replaceAll(' ', '');
  expect(manifest.faces.map((face) => face.weight)).toEqual([300, 400, 500, 700]);
  for (const { weight } of manifest.faces) {
    const latin = faces.findIndex((face) => face.includes(`/assets/roboto-latin-${weight}-normal-`));
    const core = faces.findIndex((face) => face.includes(`/assets/roboto-core-${weight}-normal-`));
    expect(latin, `Roboto ${weight}'s Latin face`).toBeGreaterThanOrEqual(0);
    expect(core, `Roboto ${weight}'s core face after its Latin face`).toBeGreaterThan(latin);
    expect(faces[core]).toContain(`font-weight:${weight};`);
    expect(faces[core]).toContain(`unicode-range:${range}`);
  }
});

test('a grading screen of ASCII text loads only the core faces; a name with ë and ü also the Latin file, drawn in Roboto', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const ascii = await seedQuestion(request, [{ name: 'Sam Taylor', answer: 'The eigenvalues are 2 and 3.' }]);
  const accented = await seedQuestion(request, [{ name: 'Zoë Müller', answer: 'The eigenvalues are 2 and 3.' }]);

  for (const [seeded, name] of [
    [ascii, 'Sam Taylor'],
    [accented, 'Zoë Müller'],
  ] as const) {
    const page = await pageFor(browser, seeded.instructor);
    const watch = watchPage(page, baseURL!);
    const fonts = recordFonts(page);
    const queue = await ok<ReviewQueueOutput>(
      await request.get(`/api${seeded.questionPath}/review-queue`, {
        headers: { Authorization: `Bearer ${seeded.instructor.token}` },
      }),
      'review queue',
    );
    const submissionId = found(queue.items[0], 'the answer in the review queue').submissionId;
    await page.goto(`${seeded.questionPath}/grade/${submissionId}`);
    const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
    await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible({ timeout: 90_000 });
    const shown = dialog.getByText(name, { exact: false }).first();
    await expect(shown).toBeVisible();

    expect(await renderedFonts(page, shown)).toEqual(['Roboto']);
    const latin = fonts.filter((font) => font.startsWith('roboto-latin-'));
    expect(fonts.filter((font) => font.startsWith('roboto-core-')).length).toBeGreaterThan(0);
    if (name === 'Sam Taylor') expect(latin).toEqual([]);
    else expect(latin.length).toBeGreaterThan(0);
    watch.assertClean();
    await page.context().close();
  }
});
