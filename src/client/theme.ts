// The Chakra UI system: the default config plus the EggWatch brand green (#34C759) and an amber
// accent. Semantic tokens pick shades that keep text at WCAG AA contrast in both colour modes:
// #34C759 itself is too light for white text, so solid fills use a darker shade in light mode.
import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

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
        // SPEC §9: prices going up are bad news for shoppers (red), down good (green); the
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

export const system = createSystem(defaultConfig, config);
