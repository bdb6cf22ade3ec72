import { Button, Card, HStack, Heading, Icon, Text } from '@chakra-ui/react';
import { LuRotateCw, LuTriangleAlert } from 'react-icons/lu';

export const DEFAULT_ERROR_TITLE = 'Something went wrong';
export const DEFAULT_ERROR_MESSAGE = 'An unexpected error occurred';

export interface ErrorCardProps {
  title?: string;
  message?: string | null;
  onRetry?: () => void;
}

/** The fallback a failing section shows in its place. */
export function ErrorCard({ title = DEFAULT_ERROR_TITLE, message, onRetry }: ErrorCardProps) {
  return (
    <Card.Root role="alert" variant="outline" borderColor="red.muted" bg="red.subtle/40" width="full">
      <Card.Body gap="3">
        <HStack gap="2" color="red.fg">
          <Icon size="md" aria-hidden>
            <LuTriangleAlert />
          </Icon>
          <Heading as="h2" size="md">
            {title}
          </Heading>
        </HStack>
        <Text color="fg">{message || DEFAULT_ERROR_MESSAGE}</Text>
        {onRetry && (
          <Button alignSelf="flex-start" size="sm" variant="outline" colorPalette="gray" onClick={onRetry}>
            <LuRotateCw aria-hidden />
            Retry
          </Button>
        )}
      </Card.Body>
    </Card.Root>
  );
}
