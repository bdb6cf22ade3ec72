// The baseline page of `npm run bench:frontend` (bench/frontend.ts): the same React, the same
// Chakra provider and theme system as the app, rendering one heading. Its main-thread time is
// what any page of this stack costs; the app's routes are reported as multiples of it.
import { ChakraProvider, Heading } from '@chakra-ui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { system } from '#client/theme.ts';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <Heading as="h1">Egg Price Dashboard</Heading>
    </ChakraProvider>
  </StrictMode>,
);
