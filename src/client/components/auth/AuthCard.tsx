import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface AuthCardProps {
  title: string;
  description?: ReactNode;
  /** An icon or badge shown above the title. */
  icon?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
  maxW?: string;
}

/** The centred card the account screens use, full width on phones. */
export function AuthCard({ title, description, icon, footer, children, maxW = 'md' }: AuthCardProps) {
  return (
    <Card.Root width="full" maxW={maxW} mx="auto" variant="outline" boxShadow="sm">
      <Card.Header gap="2" pb="2">
        {icon}
        <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
          {title}
        </Heading>
        {description && (
          <Text color="fg.muted" textStyle="sm">
            {description}
          </Text>
        )}
      </Card.Header>
      {children && (
        <Card.Body>
          <Stack gap="5">{children}</Stack>
        </Card.Body>
      )}
      {footer && (
        <Card.Footer flexDirection="column" alignItems="stretch" gap="2" borderTopWidth="1px" pt="4">
          {footer}
        </Card.Footer>
      )}
    </Card.Root>
  );
}
