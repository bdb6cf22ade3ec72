// The shared page frame of every page: sticky header, news ticker, main content, footer. Pages
// render into the Outlet; a failing or still-loading page never takes the header down with it.
import { Box, Center, Container, Flex, SkipNavContent, SkipNavLink, Spinner } from '@chakra-ui/react';
import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { NewsTicker } from './NewsTicker.tsx';

export function PageFallback() {
  return (
    <Center py="24" role="status" aria-label="Loading page">
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}

function Main({ children }: { children: ReactNode }) {
  return (
    <Box as="main" flex="1">
      <SkipNavContent />
      <Container maxW="7xl" py={{ base: '6', md: '8' }}>
        {children}
      </Container>
    </Box>
  );
}

export function PageFrame() {
  const { pathname } = useLocation();
  return (
    <Flex direction="column" minH="100dvh">
      <SkipNavLink zIndex="skipNav">Skip to content</SkipNavLink>
      <Header />
      <NewsTicker />
      {/* The footer appears with the page, not before it: shown under the loading spinner, it
          would jump down the screen when the page arrives (a layout shift). */}
      <Suspense
        fallback={
          <Main>
            <PageFallback />
          </Main>
        }
      >
        <Main>
          <ErrorBoundary title="Application Error" resetKeys={[pathname]}>
            <Outlet />
          </ErrorBoundary>
        </Main>
        <Footer />
      </Suspense>
    </Flex>
  );
}
