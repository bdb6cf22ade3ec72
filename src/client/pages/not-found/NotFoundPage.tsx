import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { LuHouse } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';

export default function NotFoundPage() {
  return (
    <Stack gap="4" align="center" textAlign="center" py={{ base: '12', md: '20' }}>
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
        404 Page Not Found
      </Heading>
      <Text color="fg.muted">Did you forget to add the page to the router?</Text>
      <Button asChild variant="solid" mt="2">
        <RouterLink to="/">
          <LuHouse aria-hidden />
          Back to Dashboard
        </RouterLink>
      </Button>
    </Stack>
  );
}
