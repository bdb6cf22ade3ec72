// The system carries only the recipes EggWatch's components use (theme.ts). A Chakra component
// whose recipe is missing renders unstyled without any error, so this test finds every Chakra
// component the client imports, follows Chakra's own modules to the recipe keys they style
// themselves with, and checks that the system has each one Chakra's default theme defines.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { system } from './theme.ts';

const CLIENT_DIR = path.dirname(fileURLToPath(import.meta.url));
const CHAKRA_ESM = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@chakra-ui/react/package.json')),
  'dist',
  'esm',
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Names the client imports from '@chakra-ui/react' (values, not types). */
function importedChakraNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(CLIENT_DIR)) {
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g)) {
      if (match[1]) continue;
      for (const part of (match[2] ?? '').split(',')) {
        const spec = part.trim();
        if (!spec || spec.startsWith('type ')) continue;
        names.add(spec.split(/\s+as\s+/)[0]!.trim());
      }
    }
  }
  return names;
}

/** The module that defines an export of Chakra's index (following re-exports and namespaces). */
function definingModule(file: string, name: string, seen = new Set<string>()): string | null {
  if (seen.has(`${file}#${name}`)) return null;
  seen.add(`${file}#${name}`);
  const source = fs.readFileSync(file, 'utf8');
  const namespace = new RegExp(`export \\{ (namespace\\$?\\w*) as ${name} \\}`).exec(source);
  if (namespace) {
    const from = new RegExp(`import \\* as ${namespace[1]!.replace('$', '\\$')} from '([^']+)'`).exec(source);
    if (from) return path.resolve(path.dirname(file), from[1]!);
  }
  for (const match of source.matchAll(/export \{([^}]*)\} from '([^']+)'/g)) {
    for (const item of match[1]!.split(',')) {
      const [original, alias] = item.trim().split(/\s+as\s+/);
      if ((alias ?? original) !== name) continue;
      if (!match[2]!.startsWith('.')) return file;
      const target = path.resolve(path.dirname(file), match[2]!);
      return definingModule(target, original!, seen) ?? target;
    }
  }
  return new RegExp(`(?:const|function|class) ${name}\\b`).test(source) ? file : null;
}

/** Recipe keys used by a component module and the Chakra component modules it imports. */
function recipeKeys(file: string, keys: Set<string>, seen: Set<string>): void {
  if (seen.has(file) || !file.includes(`${path.sep}components${path.sep}`)) return;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const match of source.matchAll(/\bkey: "([^"]+)"/g)) keys.add(match[1]!);
  for (const match of source.matchAll(/from '(\.[^']+)'/g))
    recipeKeys(path.resolve(path.dirname(file), match[1]!), keys, seen);
}

describe('the Chakra system (theme.ts)', () => {
  it('has the recipe of every Chakra component the client uses', () => {
    const defaults = new Set([
      ...Object.keys(defaultConfig.theme?.recipes ?? {}),
      ...Object.keys(defaultConfig.theme?.slotRecipes ?? {}),
    ]);
    const needed = new Map<string, string>();
    for (const name of importedChakraNames()) {
      const module = definingModule(path.join(CHAKRA_ESM, 'index.js'), name);
      if (!module) continue;
      const keys = new Set<string>();
      recipeKeys(module, keys, new Set());
      for (const key of keys) if (defaults.has(key) && !needed.has(key)) needed.set(key, name);
    }
    // Recipes the client's own code asks for by key (useRecipe / useSlotRecipe).
    for (const file of sourceFiles(CLIENT_DIR))
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\buse(?:Slot)?Recipe\(\{\s*key:\s*'([^']+)'/g))
        if (!needed.has(match[1]!)) needed.set(match[1]!, path.relative(CLIENT_DIR, file));
    expect(needed.get('nativeSelect')).toBeDefined();
    // Sanity check of the scan itself: the header's buttons and the pages' cards are found.
    expect(needed.get('button')).toBeDefined();
    expect(needed.get('card')).toBeDefined();
    const missing = [...needed]
      .filter(([key]) => !system.isRecipe(key) && !system.isSlotRecipe(key))
      .map(([key, component]) => `${key} (for ${component})`);
    expect(missing, 'recipes to add to theme.ts').toEqual([]);
  });

  it('has every colour palette and colour token the client names', () => {
    const suffix =
      '(?:50|100|200|300|400|500|600|700|800|900|950|solid|contrast|fg|muted|subtle|emphasized|focusRing|border|up|down|stable|none)';
    const missing = new Set<string>();
    // theme.ts defines the tokens (and refers to them as 'colors.x'); the rest of the client uses them.
    for (const file of sourceFiles(CLIENT_DIR).filter((name) => path.basename(name) !== 'theme.ts')) {
      const source = fs.readFileSync(file, 'utf8');
      for (const match of source.matchAll(new RegExp(`['"\`]([a-zA-Z]+)\\.(${suffix})(?:/\\d+)?['"\`]`, 'g'))) {
        if (system.token(`colors.${match[1]}.${match[2]}`) === undefined)
          missing.add(`${match[1]}.${match[2]} (${path.basename(file)})`);
      }
      for (const match of source.matchAll(/colorPalette(?:="([a-zA-Z]+)"|=\{([^}\n]*)\}|:\s*'([a-zA-Z]+)')/g)) {
        const names = (match[1] ?? match[3]) ? [`'${match[1] ?? match[3]}'`] : [match[2] ?? ''];
        for (const name of names.join(' ').matchAll(/['"]([a-zA-Z]+)['"]/g)) {
          if (system.token(`colors.${name[1]}.solid`) === undefined)
            missing.add(`colorPalette ${name[1]} (${path.basename(file)})`);
        }
      }
    }
    expect([...missing], 'palettes or tokens theme.ts leaves out').toEqual([]);
  });

  it('uses none of the utilities whose variables the global styles leave out', () => {
    // Chakra's ring, filter="auto" and backdropFilter="auto" utilities read --ring-*, --blur,
    // --backdrop-* ... from its global '*' rule, which theme.ts drops; add them back to use these.
    const utilities =
      /\b(ring|ringColor|ringWidth|ringOffset|ringOffsetColor|ringInset|blur|brightness|contrast|grayscale|hueRotate|invert|saturate|sepia|dropShadow|backdropBlur|backdropBrightness|backdropContrast|backdropGrayscale|backdropHueRotate|backdropInvert|backdropOpacity|backdropSaturate|backdropSepia)=|(?:filter|backdropFilter)="auto"/;
    const users = sourceFiles(CLIENT_DIR).filter((file) => utilities.test(fs.readFileSync(file, 'utf8')));
    expect(users.map((file) => path.relative(CLIENT_DIR, file))).toEqual([]);
  });

  it('stills the skeleton for a shopper who asks for less motion', () => {
    const skeleton = system.cva(system.getRecipe('skeleton'));
    for (const variant of ['pulse', 'shine'] as const) {
      const styles = system.css(skeleton({ variant }) as never) as Record<string, Record<string, unknown>>;
      const recipe = styles['@layer recipes']!;
      expect(recipe.animation, variant).not.toBe('none');
      expect(recipe['@media (prefers-reduced-motion: reduce)'], variant).toEqual({ animation: 'none' });
    }
  });

  it('keeps the brand palette', () => {
    expect(system.token('colors.brand.500')).toBe('#34C759');
    expect(system.isSlotRecipe('menu')).toBe(true);
    expect(system.isRecipe('button')).toBe(true);
  });
});
