// /notifications/unsubscribe?token=: the unsubscribe link of every alert email. The page says what
// would stop and asks first (a link scanner's GET unsubscribes nobody); mail clients' one-click
// button POSTs to the same URL instead (RFC 8058, served by the web process).
import { Alert, Button, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuBellOff, LuHouse } from 'react-icons/lu';
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

function Unsubscribe({ token }: { token: string }) {
  const info = trpc.alerts.unsubscribeInfo.useQuery({ token }, { retry: false });
  const unsubscribe = trpc.alerts.unsubscribe.useMutation();
  const icon = <LuBellOff aria-hidden size="28" />;

  if (unsubscribe.isSuccess || (info.data && !info.data.active)) {
    const summary = unsubscribe.data?.summary ?? info.data?.summary;
    return (
      <AuthCard title="You are unsubscribed" icon={icon}>
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>No more alerts will be sent for this subscription</Alert.Title>
            {summary && <Alert.Description>{summary}</Alert.Description>}
          </Alert.Content>
        </Alert.Root>
        <Text textStyle="sm">
          Changed your mind?{' '}
          <Link asChild colorPalette="brand" variant="underline">
            <RouterLink to={`/notifications/manage?token=${encodeURIComponent(token)}`}>Manage this alert</RouterLink>
          </Link>{' '}
          to switch it on again.
        </Text>
        <Home />
      </AuthCard>
    );
  }
  if (info.isError) {
    return (
      <AuthCard title="Unsubscribe" icon={icon}>
        <Text>{failureMessage(info.error, 'This unsubscribe link could not be checked. Please try again.')}</Text>
        <Home />
      </AuthCard>
    );
  }
  if (info.isPending) {
    return (
      <AuthCard title="Unsubscribe" icon={icon}>
        <Stack gap="3" role="status" aria-label="Loading the subscription">
          <Skeleton height="5" />
          <Skeleton height="10" width="40" />
        </Stack>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Unsubscribe from price alerts?" icon={icon}>
      <Text>
        Stop sending <strong>{info.data.email}</strong> the alerts for: {info.data.summary}.
      </Text>
      {unsubscribe.isError && (
        <Text color="fg.error" role="alert">
          {failureMessage(unsubscribe.error, 'Unsubscribing failed. Please try again.')}
        </Text>
      )}
      <Button
        colorPalette="red"
        loading={unsubscribe.isPending}
        loadingText="Unsubscribing..."
        onClick={() => unsubscribe.mutate({ token })}
      >
        Unsubscribe
      </Button>
    </AuthCard>
  );
}

export default function UnsubscribePage() {
  const [params] = useUrlSearch();
  const token = params.get('token') ?? '';
  if (!token) {
    return (
      <AuthCard title="Unsubscribe" icon={<LuBellOff aria-hidden size="28" />}>
        <Text>This link is incomplete. Open the unsubscribe link from the email again.</Text>
        <Home />
      </AuthCard>
    );
  }
  return <Unsubscribe token={token} />;
}
