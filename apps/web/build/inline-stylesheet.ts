import type { Plugin } from 'vite';

/**
 * Writes the entry's stylesheet (src/fonts.css, linked from index.html: Roboto's @font-face rules,
 * about 3 KB brotli) into the page as a `<style>` element, and leaves the file out of the build.
 *
 * A linked stylesheet blocks the first paint until it has arrived: one more round trip before the
 * page's own first paint (its loading screen) on a slow line. Inline, the page paints as soon as the
 * HTML is there (decision 0064).
 *
 * Vite counts a stylesheet the HTML links as CSS of the entry chunk (`viteMetadata.importedCss`),
 * and every lazy chunk that imports from the entry lists the entry's CSS among the files to load
 * before it runs. So the file is taken off the entry's list before Vite writes those lists and the
 * HTML's link (`order: 'pre'`): no chunk then asks for a file that is already in the page.
 */
export function inlineStylesheet(): Plugin {
  let inlined: string[] = [];
  return {
    name: 'gradewise:inline-stylesheet',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const entries = Object.values(bundle).filter((file) => file.type === 'chunk' && file.isEntry);
        if (entries.length !== 1) throw new Error(`Expected one entry chunk (index.html), found ${entries.length}.`);
        const entry = entries[0]!;
        if (entry.type !== 'chunk' || !entry.viteMetadata) throw new Error('The entry chunk has no Vite metadata.');
        inlined = [];
        for (const fileName of entry.viteMetadata.importedCss) {
          const asset = bundle[fileName];
          if (asset?.type !== 'asset' || typeof asset.source !== 'string')
            throw new Error(`The stylesheet ${fileName} is not in the build.`);
          // Every url() in it is absolute (/assets/…), so it means the same inside the page.
          if (/<\/style/i.test(asset.source)) throw new Error(`${fileName} cannot be written inside <style>.`);
          inlined.push(asset.source);
          delete bundle[fileName];
        }
        entry.viteMetadata.importedCss.clear();
        if (inlined.length === 0) throw new Error('index.html links no stylesheet (src/fonts.css) to write into it.');
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (/<link rel="stylesheet"/.test(html)) throw new Error('index.html still links a stylesheet.');
        return html.replace('</head>', () => `  <style>${inlined.join('')}</style>\n  </head>`);
      },
    },
  };
}
