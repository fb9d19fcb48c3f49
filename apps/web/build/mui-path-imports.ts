import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const BARREL_IMPORT = /import\s*\{([^}]*)\}\s*from\s*(['"])@mui\/material\2;?/g;

/**
 * Rewrites `import { Button, Stack } from '@mui/material'` into one import per component
 * (`import Button from '@mui/material/Button'`) at build time.
 *
 * Why: Rollup splits chunks by the import graph, and the barrel imports every MUI component. A
 * screen that imports anything from it makes every component some screen uses a dependency of
 * the first page, so the Stepper of the rubric wizard ended up in the chunk the landing page
 * loads. With one import per component, a component only a lazy screen uses stays with it.
 * The source keeps the ordinary barrel imports (shorter, what the MUI docs show).
 */
export function muiPathImports(): Plugin {
  const exportsByName = readBarrelExports();
  return {
    name: 'gradewise:mui-path-imports',
    apply: 'build',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id.split('?')[0] ?? '')) return null;
      if (!code.includes('@mui/material')) return null;
      let changed = false;
      const rewritten = code.replace(BARREL_IMPORT, (statement, specifiers: string) => {
        const lines: string[] = [];
        const fromStyles: string[] = [];
        for (const raw of specifiers.split(',')) {
          const specifier = raw.trim();
          if (!specifier || specifier.startsWith('type ')) continue;
          const [imported = '', local = imported] = specifier.split(/\s+as\s+/).map((part) => part.trim());
          const directory = exportsByName.get(imported);
          if (directory) lines.push(`import ${local} from '@mui/material/${directory}';`);
          // Everything else the barrel offers (ThemeProvider, styled, alpha…) comes from its styles.
          else fromStyles.push(specifier);
        }
        if (fromStyles.length > 0) lines.push(`import { ${fromStyles.join(', ')} } from '@mui/material/styles';`);
        changed = true;
        return lines.join('\n');
      });
      return changed ? { code: rewritten, map: null } : null;
    },
  };
}

/** `Button` -> `Button`, `useMediaQuery` -> `useMediaQuery`: the default exports the barrel re-exports by name. */
function readBarrelExports(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('@mui/material/package.json'));
  const barrel = fs.readFileSync(path.join(packageDir, 'esm/index.js'), 'utf8');
  const exportsByName = new Map<string, string>();
  for (const match of barrel.matchAll(/export \{ default as (\w+) \} from "\.\/(\w+)\/index\.js";/g)) {
    exportsByName.set(match[1]!, match[2]!);
  }
  if (!exportsByName.has('Button')) throw new Error(`@mui/material's index changed shape: ${packageDir}/esm/index.js`);
  return exportsByName;
}
