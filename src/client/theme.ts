// The Chakra UI system: Chakra's default tokens, global styles and the recipes of the components
// EggWatch uses, plus the EggWatch brand green (#34C759) and an amber accent. Semantic tokens pick
// shades that keep text at WCAG AA contrast in both colour modes: #34C759 itself is too light for
// white text, so solid fills use a darker shade in light mode.
//
// Bundle size: `defaultConfig` carries the recipes of every Chakra component (about 120 kB
// minified) and sits in the entry chunk, so the system is built from `defaultBaseConfig` and only
// the recipes below. A Chakra component whose recipe is missing renders unstyled without an error:
// when a page starts using another recipe-styled component (RadioGroup, Select, Stat, List,
// Textarea...), add its recipe here; theme.test.ts fails until then.
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  collapsibleSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  segmentGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  skipNavLinkRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

/**
 * Colour palettes nothing in EggWatch or in the recipes above uses (theme.test.ts checks). The
 * system is built before the first paint, and each palette adds its shades, semantic tokens and
 * colorPalette variants to that work, which costs phones several hundred milliseconds.
 */
const UNUSED_PALETTES = new Set(['yellow', 'teal', 'cyan', 'purple', 'pink']);

function withoutUnusedPalettes<T extends object>(colors: T): T {
  return Object.fromEntries(Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.has(name))) as T;
}

/**
 * Chakra's global styles without the 24 custom properties its `*` rule gives every element for
 * the ring, filter and backdrop-filter utilities, which EggWatch does not use (theme.test.ts
 * checks): declared on every element they make each style recalculation a quarter slower.
 */
const GLOBAL_CSS = {
  ...globalCss,
  '*': {
    fontFeatureSettings: '"cv11"',
    '--global-font-mono': 'fonts.mono',
    '--global-font-body': 'fonts.body',
    '--global-color-border': 'colors.border',
  },
};

/**
 * Chakra's skeleton, still for a shopper who asks for less motion (the operating system's reduce
 * motion setting): its placeholders stay as grey blocks instead of pulsing for as long as a section
 * loads, as the news strip stops moving.
 */
const SKELETON_RECIPE = {
  ...skeletonRecipe,
  variants: {
    ...skeletonRecipe.variants,
    variant: Object.fromEntries(
      Object.entries(skeletonRecipe.variants?.variant ?? {}).map(([name, styles]) => [
        name,
        { ...styles, _motionReduce: { animation: 'none' } },
      ]),
    ),
  },
};

/** Chakra's default theme with only the recipes EggWatch's components use (keys as in Chakra). */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss: GLOBAL_CSS,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors) },
    semanticTokens: { ...semanticTokens, colors: withoutUnusedPalettes(semanticTokens.colors) },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: SKELETON_RECIPE,
      skipNavLink: skipNavLinkRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      collapsible: collapsibleSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      popover: popoverSlotRecipe,
      progress: progressSlotRecipe,
      segmentGroup: segmentGroupSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
});

const config = defineConfig({
  globalCss: {
    html: { colorPalette: 'brand' },
  },
  theme: {
    tokens: {
      colors: {
        brand: {
          50: { value: '#ecfaf0' },
          100: { value: '#d3f4dc' },
          200: { value: '#a8e9ba' },
          300: { value: '#7ddd97' },
          400: { value: '#55d277' },
          500: { value: '#34C759' },
          600: { value: '#27a346' },
          700: { value: '#1d7d36' },
          800: { value: '#175e2a' },
          900: { value: '#11431f' },
          950: { value: '#0a2812' },
        },
        amber: {
          50: { value: '#fffbeb' },
          100: { value: '#fef3c7' },
          200: { value: '#fde68a' },
          300: { value: '#fcd34d' },
          400: { value: '#fbbf24' },
          500: { value: '#FFB300' },
          600: { value: '#d97706' },
          700: { value: '#b45309' },
          800: { value: '#92400e' },
          900: { value: '#78350f' },
          950: { value: '#451a03' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.500}' } },
          contrast: { value: { _light: 'white', _dark: '{colors.brand.950}' } },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.400}' } },
          border: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.400}' } },
        },
        amber: {
          solid: { value: { _light: '{colors.amber.500}', _dark: '{colors.amber.500}' } },
          contrast: { value: { _light: '{colors.amber.950}', _dark: '{colors.amber.950}' } },
          fg: { value: { _light: '{colors.amber.800}', _dark: '{colors.amber.300}' } },
          muted: { value: { _light: '{colors.amber.200}', _dark: '{colors.amber.800}' } },
          subtle: { value: { _light: '{colors.amber.100}', _dark: '{colors.amber.900}' } },
          emphasized: { value: { _light: '{colors.amber.300}', _dark: '{colors.amber.700}' } },
          focusRing: { value: { _light: '{colors.amber.600}', _dark: '{colors.amber.400}' } },
          border: { value: { _light: '{colors.amber.600}', _dark: '{colors.amber.400}' } },
        },
        // Error text (a field's message, a failed save) at AA contrast: Chakra's red.500 on white
        // is 3.8:1, red.fg (red.700 in light mode) 6.5:1.
        fg: {
          error: { value: '{colors.red.fg}' },
        },
        // Prices going up are bad news for shoppers (red), down good (green); the
        // ticker's items without a trend are amber, other stable values grey.
        trend: {
          up: { value: '{colors.red.fg}' },
          down: { value: '{colors.green.fg}' },
          stable: { value: '{colors.fg.muted}' },
          none: { value: '{colors.amber.fg}' },
        },
      },
    },
    keyframes: {
      ticker: {
        from: { transform: 'translateX(0)' },
        to: { transform: 'translateX(-50%)' },
      },
    },
  },
});

export const system = createSystem(defaultBaseConfig, chakraTheme, config);
