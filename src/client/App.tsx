// Providers, outermost first: data (tRPC + React Query), theme (Chakra + colour mode), routing.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { ColorModeProvider } from '#client/components/ColorMode.tsx';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { Toaster } from '#client/components/Toaster.tsx';
import { seedInitialData } from '#client/lib/initialData.ts';
import { createQueryClient } from '#client/lib/queryClient.ts';
import { createTrpcClient, trpc } from '#client/lib/trpc.ts';
import { AppRoutes } from '#client/routes.tsx';
import { system } from '#client/theme.ts';

export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (typeof document !== 'undefined') seedInitialData(client);
    return client;
  });
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={system}>
          <ColorModeProvider>
            <ErrorBoundary title="Application Error">
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </ErrorBoundary>
            <Toaster />
          </ColorModeProvider>
        </ChakraProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
