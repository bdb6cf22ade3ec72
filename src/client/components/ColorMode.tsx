// Light/dark colour mode through next-themes, which Chakra UI v3 follows via the `.dark` class.
import { IconButton } from '@chakra-ui/react';
import { ThemeProvider, useTheme } from 'next-themes';
import type { ReactNode } from 'react';
import { LuMoon, LuSun } from 'react-icons/lu';

export function ColorModeProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider attribute="class" defaultTheme="light" enableSystem={false} disableTransitionOnChange>
      {children}
    </ThemeProvider>
  );
}

export function ColorModeButton() {
  const { resolvedTheme, setTheme } = useTheme();
  const dark = resolvedTheme === 'dark';
  const label = dark ? 'Switch to light mode' : 'Switch to dark mode';
  return (
    <IconButton
      aria-label={label}
      title={label}
      variant="ghost"
      colorPalette="gray"
      size="sm"
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    >
      {dark ? <LuSun /> : <LuMoon />}
    </IconButton>
  );
}
