// /notifications/manage?token=: the manage link of every subscription email. Anyone holding the
// email changes what the alert watches, how often it writes, or switches it off, without an
// account; the address itself stays (the link proves only that one).
import { Alert, Badge, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuBellOff, LuBellRing, LuHouse } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import type { Subscription } from '#shared/subscriptions.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { errorCode, failureMessage } from '#client/components/auth/errors.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import { SubscriptionForm, formValuesOf } from './SubscriptionForm.tsx';

const icon = <LuBellRing aria-hidden size="28" />;

function Home() {
  return (
    <Button asChild variant="outline" alignSelf="flex-start">
      <RouterLink to="/">
        <LuHouse aria-hidden />
        Return Home
      </RouterLink>
    </Button>
  );
}

/** Pending until its address is confirmed; then on or off. */
function subscriptionState(s: Pick<Subscription, 'active' | 'confirmed_at'>): {
  label: string;
  palette: string;
  note: string;
} {
  if (!s.confirmed_at)
    return {
      label: 'Waiting for confirmation',
      palette: 'orange',
      note: 'Nothing is sent until the link in the confirmation email is followed.',
    };
  if (!s.active)
    return { label: 'Off', palette: 'gray', note: 'No alerts are sent. Tick Active and save to start them again.' };
  return { label: 'Active', palette: 'green', note: 'Alerts are sent to this address.' };
}

function Manage({ token }: { token: string }) {
  const manage = trpc.alerts.manage.useQuery({ token }, { retry: false });
  const utils = trpc.useUtils();
  const save = trpc.alerts.manageUpdate.useMutation({
    onSuccess: (result) => {
      utils.alerts.manage.setData({ token }, { subscription: result.subscription, summary: result.summary });
      toaster.create({ type: 'success', title: 'Subscription updated', description: result.message });
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Update failed',
        description: failureMessage(error, 'Please try again later.'),
      }),
  });

  if (manage.isError) {
    if (errorCode(manage.error) === 'NOT_FOUND' || errorCode(manage.error) === 'BAD_REQUEST') {
      return (
        <AuthCard title="Manage your price alert" icon={icon}>
          <Text>{failureMessage(manage.error, 'This link is invalid.')}</Text>
          <Home />
        </AuthCard>
      );
    }
    return (
      <ErrorCard
        message={failureMessage(manage.error, 'Failed to load the subscription. Please try again.')}
        onRetry={() => void manage.refetch()}
      />
    );
  }
  if (manage.isPending) {
    return (
      <AuthCard title="Manage your price alert" icon={icon} maxW="xl">
        <Stack gap="3" role="status" aria-label="Loading the subscription">
          <Skeleton height="5" width="60%" />
          <Skeleton height="10" />
          <Skeleton height="10" />
          <Skeleton height="10" width="40" />
        </Stack>
      </AuthCard>
    );
  }
  const { subscription: s, summary } = manage.data;
  const state = subscriptionState(s);
  return (
    <AuthCard title="Manage your price alert" description={summary} maxW="xl" icon={icon}>
      <Alert.Root
        status={state.palette === 'green' ? 'success' : state.palette === 'orange' ? 'warning' : 'neutral'}
        size="sm"
      >
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>
            <HStack gap="2">
              Status
              <Badge colorPalette={state.palette} variant="subtle">
                {state.label}
              </Badge>
            </HStack>
          </Alert.Title>
          <Alert.Description>{state.note}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <SubscriptionForm
        // A new form after each save, so it shows what was stored.
        key={`${s.id}:${summary}:${s.active}`}
        showActive
        emailReadOnly
        initial={formValuesOf(s)}
        submitLabel="Save Changes"
        pending={save.isPending}
        serverError={save.error}
        notice={
          save.isError ? (
            <Text color="fg.error" role="alert" textStyle="sm">
              {failureMessage(save.error, 'There was a problem saving your subscription. Please try again.')}
            </Text>
          ) : null
        }
        onSubmit={({ email: _address, ...values }) => save.mutate({ ...values, token })}
      />
      <HStack gap="3" wrap="wrap" borderTopWidth="1px" pt="4">
        <Button asChild variant="outline" colorPalette="red" size="sm">
          <RouterLink to={`/notifications/unsubscribe?token=${encodeURIComponent(token)}`}>
            <LuBellOff aria-hidden />
            Unsubscribe
          </RouterLink>
        </Button>
        <Text textStyle="xs" color="fg.muted">
          Stops every email of this alert at once.
        </Text>
      </HStack>
    </AuthCard>
  );
}

export default function ManageSubscriptionPage() {
  const [params] = useUrlSearch();
  const token = params.get('token') ?? '';
  if (!token) {
    return (
      <AuthCard title="Manage your price alert" icon={icon}>
        <Text>This link is incomplete. Open the manage link from an EggWatch email again.</Text>
        <Home />
      </AuthCard>
    );
  }
  return <Manage token={token} />;
}
