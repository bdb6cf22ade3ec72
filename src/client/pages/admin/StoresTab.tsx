// The stores table of the admin dashboard (stores.list): name, regions served, type, status.
import { Badge, Card, EmptyState, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { LuStore } from 'react-icons/lu';
import { REGION_LABELS } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { trpc } from '#client/lib/trpc.ts';

function titleCase(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value;
}

export function StoresTab() {
  const stores = trpc.stores.list.useQuery();

  if (stores.isPending) {
    return (
      <Stack gap="2" role="status" aria-label="Loading stores">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} height="10" />
        ))}
      </Stack>
    );
  }
  if (stores.isError) {
    return (
      <ErrorCard
        message={failureMessage(stores.error, 'Unable to load the stores. Please try again.')}
        onRetry={() => void stores.refetch()}
      />
    );
  }
  if (stores.data.length === 0) {
    return (
      <Card.Root variant="outline">
        <EmptyState.Root size="sm">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <LuStore />
            </EmptyState.Indicator>
            <EmptyState.Title>No stores yet</EmptyState.Title>
          </EmptyState.Content>
        </EmptyState.Root>
      </Card.Root>
    );
  }
  return (
    <Stack gap="3">
      <Text textStyle="sm" color="fg.muted">
        {stores.data.length} stores, {stores.data.filter((store) => store.active).length} active.
      </Text>
      <Table.ScrollArea borderWidth="1px" borderRadius="md">
        <Table.Root size="sm" striped>
          <Table.Caption srOnly>Stores</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Regions served</Table.ColumnHeader>
              <Table.ColumnHeader hideBelow="sm">Type</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {stores.data.map((store) => (
              <Table.Row key={store.id}>
                <Table.Cell fontWeight="medium" whiteSpace="nowrap">
                  {store.store_name}
                  {/* Phones show the type here instead of in its own column. */}
                  <Text
                    as="span"
                    display={{ base: 'block', sm: 'none' }}
                    fontWeight="normal"
                    textStyle="xs"
                    color="fg.muted"
                  >
                    {titleCase(store.store_type)}
                  </Text>
                </Table.Cell>
                <Table.Cell whiteSpace="normal" minW="32">
                  {store.regions_served.length
                    ? store.regions_served.map((region) => REGION_LABELS[region]).join(', ')
                    : 'None'}
                </Table.Cell>
                <Table.Cell hideBelow="sm">{titleCase(store.store_type)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={store.active ? 'green' : 'gray'} variant="subtle">
                    {store.active ? 'Active' : 'Inactive'}
                  </Badge>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}
