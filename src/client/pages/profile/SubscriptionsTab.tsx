// The user's price-alert subscriptions (users.alerts). Activity is shown, not toggled
// here; editing happens on the subscription screens.
import {
  Badge,
  Button,
  Card,
  DataList,
  EmptyState,
  Flex,
  Heading,
  HStack,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { LuBellPlus, LuPencil, LuPlus, LuTrash2 } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { formatPrice } from '#shared/format.ts';
import { EGG_TYPE_LABELS, REGION_LABELS, type EggType, type Region } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';

type Subscription = RouterOutputs['users']['alerts'][number];

const FREQUENCY_LABELS: Record<Subscription['notification_frequency'], string> = {
  immediately: 'Immediately',
  daily: 'Daily Digest',
  weekly: 'Weekly Summary',
};

function regionLabel(region: string | null): string {
  return region ? (REGION_LABELS[region as Region] ?? region) : 'All regions';
}

function eggTypeLabel(type: string | null): string {
  return type ? (EGG_TYPE_LABELS[type as EggType] ?? type) : 'All egg types';
}

function AddButton({ label }: { label: string }) {
  return (
    <Button asChild size="sm">
      <RouterLink to="/notifications/subscribe">
        <LuPlus aria-hidden />
        {label}
      </RouterLink>
    </Button>
  );
}

function SubscriptionCard({
  subscription,
  storeNames,
  userId,
}: {
  subscription: Subscription;
  storeNames: Map<string, string>;
  userId: string;
}) {
  const utils = trpc.useUtils();
  const remove = trpc.alerts.delete.useMutation();
  const title = `${regionLabel(subscription.region)} · ${eggTypeLabel(subscription.egg_type)}`;
  const stores = subscription.preferred_stores.map((id) => storeNames.get(id) ?? id);

  function deleteIt() {
    remove.mutate(
      { id: subscription.id },
      {
        onSuccess: () => {
          utils.users.alerts.setData({ id: userId }, (list) => list?.filter((item) => item.id !== subscription.id));
          toaster.create({
            type: 'success',
            title: 'Subscription deleted',
            description: `You will no longer get alerts for ${title}.`,
          });
        },
        onError: (error) => {
          toaster.create({
            type: 'error',
            title: 'Deletion failed',
            description: failureMessage(error, 'The subscription could not be deleted. Please try again.'),
          });
        },
      },
    );
  }

  return (
    <Card.Root variant="outline" as="li">
      <Card.Header pb="2">
        <Flex gap="2" justify="space-between" align="flex-start" wrap="wrap">
          <Heading as="h3" size="md">
            {title}
          </Heading>
          <HStack gap="2" wrap="wrap">
            {subscription.active ? (
              <Badge colorPalette="green" variant="subtle">
                Active
              </Badge>
            ) : (
              <Badge colorPalette="gray" variant="subtle">
                Inactive
              </Badge>
            )}
            {!subscription.confirmed_at && (
              <Badge colorPalette="orange" variant="subtle" title="Confirm the subscription from the email we sent">
                Awaiting email confirmation
              </Badge>
            )}
          </HStack>
        </Flex>
      </Card.Header>
      <Card.Body py="2">
        <DataList.Root orientation="horizontal" size="sm" gap="2">
          <DataList.Item>
            <DataList.ItemLabel minW="32">Email</DataList.ItemLabel>
            <DataList.ItemValue wordBreak="break-all">{subscription.email}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="32">Frequency</DataList.ItemLabel>
            <DataList.ItemValue>{FREQUENCY_LABELS[subscription.notification_frequency]}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="32">Price threshold</DataList.ItemLabel>
            <DataList.ItemValue>
              {subscription.price_threshold == null ? 'Any price' : formatPrice(subscription.price_threshold)}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="32">Preferred stores</DataList.ItemLabel>
            <DataList.ItemValue>{stores.length ? stores.join(', ') : 'All stores'}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Card.Body>
      <Card.Footer gap="2" pt="3" flexWrap="wrap">
        <Button asChild size="sm" variant="outline" colorPalette="gray">
          <RouterLink to={`/notifications/edit/${subscription.id}`} aria-label={`Edit subscription ${title}`}>
            <LuPencil aria-hidden />
            Edit
          </RouterLink>
        </Button>
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          loading={remove.isPending}
          loadingText="Deleting..."
          onClick={deleteIt}
          aria-label={`Delete subscription ${title}`}
        >
          <LuTrash2 aria-hidden />
          Delete
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

export function SubscriptionsTab({ userId }: { userId: string }) {
  const subscriptions = trpc.users.alerts.useQuery({ id: userId });
  // Store names for the preferred-store ids; the ids themselves are shown if this fails.
  const stores = trpc.stores.list.useQuery();
  const storeNames = new Map((stores.data ?? []).map((store) => [store.id, store.store_name]));

  if (subscriptions.isPending) {
    return (
      <Stack gap="4" role="status" aria-label="Loading subscriptions">
        <Skeleton height="40" />
        <Skeleton height="40" />
      </Stack>
    );
  }
  if (subscriptions.isError) {
    return (
      <ErrorCard
        message="Failed to load subscriptions. Please try again later."
        onRetry={() => void subscriptions.refetch()}
      />
    );
  }
  if (subscriptions.data.length === 0) {
    return (
      <Card.Root variant="outline">
        <EmptyState.Root size="md">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <LuBellPlus />
            </EmptyState.Indicator>
            <Stack textAlign="center" gap="1">
              <EmptyState.Title>No price alerts yet</EmptyState.Title>
              <EmptyState.Description>
                Subscribe to get an email when egg prices in your region change.
              </EmptyState.Description>
            </Stack>
            <AddButton label="Add New Subscription" />
          </EmptyState.Content>
        </EmptyState.Root>
      </Card.Root>
    );
  }
  return (
    <Stack gap="4">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text color="fg.muted">
          {subscriptions.data.length === 1
            ? '1 price alert subscription'
            : `${subscriptions.data.length} price alert subscriptions`}
        </Text>
        <AddButton label="Add New" />
      </Flex>
      <Stack as="ul" gap="4" listStyleType="none" aria-label="Your subscriptions">
        {subscriptions.data.map((subscription) => (
          <SubscriptionCard key={subscription.id} subscription={subscription} storeNames={storeNames} userId={userId} />
        ))}
      </Stack>
    </Stack>
  );
}
