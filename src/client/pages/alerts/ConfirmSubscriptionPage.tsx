// /notifications/confirm?token=: the link of the double opt-in email. Confirming takes a click, so a
// mail scanner that follows links confirms nothing. The same link followed again says the alert is
// already confirmed.
import { Alert, Button, Text } from '@chakra-ui/react';
import { LuBellRing, LuHouse, LuMailCheck } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { trpc } from '#client/lib/trpc.ts';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';

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

export default function ConfirmSubscriptionPage() {
  const [params] = useUrlSearch();
  const token = params.get('token') ?? '';
  const confirm = trpc.alerts.confirm.useMutation();

  if (!token) {
    return (
      <AuthCard title="Confirm your price alert" icon={<LuBellRing aria-hidden size="28" />}>
        <Text>This link is incomplete. Open the link from the confirmation email again.</Text>
        <Home />
      </AuthCard>
    );
  }
  if (confirm.isSuccess) {
    const { status, summary, subscription } = confirm.data;
    const already = status === 'already-confirmed';
    return (
      <AuthCard
        title={already ? 'Already confirmed' : 'Price alert confirmed'}
        icon={<LuMailCheck aria-hidden size="28" />}
      >
        <Alert.Root status={subscription.active ? 'success' : 'neutral'}>
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              {subscription.active
                ? already
                  ? 'This price alert was confirmed before and is on'
                  : 'Your price alert is on'
                : 'This price alert is confirmed but switched off: nothing is sent'}
            </Alert.Title>
            <Alert.Description>{summary}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Text textStyle="sm" color="fg.muted">
          Every EggWatch alert email has a link to manage this alert or unsubscribe.
        </Text>
        <Home />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Confirm your price alert"
      description="One click and EggWatch starts sending the alerts you asked for."
      icon={<LuBellRing aria-hidden size="28" />}
    >
      {confirm.isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Not confirmed</Alert.Title>
            <Alert.Description>
              {failureMessage(confirm.error, 'The subscription could not be confirmed. Please try again.')}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Button
        colorPalette="brand"
        loading={confirm.isPending}
        loadingText="Confirming..."
        onClick={() => confirm.mutate({ token })}
      >
        Confirm Subscription
      </Button>
    </AuthCard>
  );
}
