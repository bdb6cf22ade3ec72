// The shared page frame of SPEC §2: sticky header, news ticker, main content, footer. Pages
// render into the Outlet; a failing or still-loading page never takes the frame down with it.
import { Box, Center, Container, Flex, SkipNavContent, SkipNavLink, Spinner } from '@chakra-ui/react';
import { Suspense } from 'react';
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

export function PageFrame() {
  const { pathname } = useLocation();
  return (
    <Flex direction="column" minH="100dvh">
      <SkipNavLink zIndex="skipNav">Skip to content</SkipNavLink>
      <Header />
      <NewsTicker />
      <Box as="main" flex="1">
        <SkipNavContent />
        <Container maxW="7xl" py={{ base: '6', md: '8' }}>
          <ErrorBoundary title="Application Error" resetKeys={[pathname]}>
            <Suspense fallback={<PageFallback />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Container>
      </Box>
      <Footer />
    </Flex>
  );
}
