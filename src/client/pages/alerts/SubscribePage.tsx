// /notifications/subscribe: the price-alert form, prefilled with the signed-in user's
// email, the choices its link carries (the Preferences page's alert switches send visitors here),
// else the saved preferences' region and egg type; on success a confirmation view with
// 'Return Home' and 'Add Another Subscription', on failure the inline error and a toast.
import { Alert, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuBellRing, LuHouse, LuPlus, LuSettings } from 'react-icons/lu';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { EGG_TYPE_SLUGS } from '#shared/vocabulary.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { textBesideTitle, toaster } from '#client/components/Toaster.tsx';
import { usePreferenceFilters } from '#client/lib/savedPreferences.ts';
import { parseSubscribePrefill } from '#client/lib/subscribePrefill.ts';
import { hasAuthToken } from '#client/lib/session.ts';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';
import { EMPTY_FORM, SubscriptionForm, type FormValues } from './SubscriptionForm.tsx';

export const CREATE_FAILED = 'There was a problem creating your subscription. Please try again.';
/** The form offers a region, not a place: it promises no more than that. */
export const SUBSCRIBE_INTRO =
  'Get an email when egg prices drop in the region you choose, or a daily or weekly summary.';
const CREATED = 'Subscription created!';

type Created = RouterOutputs['alerts']['create'];

/** Title of the view when the address already has the alert asked for. */
export const EXISTS_TITLE = 'You already have this alert';

function Done({ result, onAnother }: { result: Created; onAnother: () => void }) {
  const exists = result.status === 'exists';
  return (
    <AuthCard
      title={exists ? EXISTS_TITLE : result.status === 'confirmed' ? 'You are subscribed' : 'Confirm your subscription'}
      icon={<LuBellRing aria-hidden size="28" />}
    >
      <Alert.Root status={exists ? 'info' : result.status === 'confirmed' ? 'success' : 'info'}>
        <Alert.Indicator />
        <Alert.Content>
          {exists ? (
            <Alert.Description>{result.message}</Alert.Description>
          ) : (
            <>
              <Alert.Title>{CREATED}</Alert.Title>
              <Alert.Description>{textBesideTitle(CREATED, result.message)}</Alert.Description>
            </>
          )}
        </Alert.Content>
      </Alert.Root>
      {result.subscription && !exists && (
        <Text textStyle="sm" color="fg.muted">
          Alerts go to <strong>{result.subscription.email}</strong>. Every email has a link to stop them.
        </Text>
      )}
      <HStack gap="3" wrap="wrap">
        {exists && result.manageable && result.subscription && (
          <Button asChild colorPalette="brand">
            <RouterLink to={`/notifications/edit/${result.subscription.id}`}>
              <LuSettings aria-hidden />
              Manage this alert
            </RouterLink>
          </Button>
        )}
        <Button
          asChild
          colorPalette={exists && result.manageable ? 'gray' : 'brand'}
          variant={exists && result.manageable ? 'outline' : 'solid'}
        >
          <RouterLink to="/">
            <LuHouse aria-hidden />
            Return Home
          </RouterLink>
        </Button>
        <Button variant="outline" onClick={onAnother}>
          <LuPlus aria-hidden />
          Add Another Subscription
        </Button>
      </HStack>
    </AuthCard>
  );
}

function Form({ initial, onCreated }: { initial: FormValues; onCreated: (result: Created) => void }) {
  const create = trpc.alerts.create.useMutation();
  const utils = trpc.useUtils();
  return (
    <AuthCard title="Price Alerts" description={SUBSCRIBE_INTRO} maxW="xl" icon={<LuBellRing aria-hidden size="28" />}>
      <SubscriptionForm
        initial={initial}
        submitLabel="Subscribe"
        pending={create.isPending}
        serverError={create.error}
        notice={
          create.isError ? (
            <Text color="fg.error" role="alert" textStyle="sm">
              {CREATE_FAILED}
            </Text>
          ) : null
        }
        onSubmit={(values) =>
          create.mutate(values, {
            onSuccess: (result) => {
              // An alert the address already has: the view says so, with the way to manage it.
              if (result.status !== 'exists')
                toaster.create({ type: 'success', title: CREATED, description: result.message });
              void utils.users.alerts.invalidate();
              onCreated(result);
            },
            onError: (error) =>
              toaster.create({
                type: 'error',
                title: 'Subscription failed',
                description: failureMessage(error, 'Please try again later.'),
              }),
          })
        }
      />
    </AuthCard>
  );
}

export default function SubscribePage() {
  const preferences = usePreferenceFilters();
  const prefill = parseSubscribePrefill(useLocation().search);
  const [signedIn] = useState(hasAuthToken);
  const verify = trpc.auth.verify.useQuery(undefined, { enabled: signedIn, retry: false });
  const [created, setCreated] = useState<Created | null>(null);
  const [round, setRound] = useState(0);

  if (created) return <Done result={created} onAnother={() => (setCreated(null), setRound((n) => n + 1))} />;
  // Wait for the signed-in user's email before the form takes its initial values.
  if (signedIn && verify.isPending) {
    return (
      <Stack maxW="xl" mx="auto" width="full" gap="4" role="status" aria-label="Loading the form">
        <Skeleton height="12" />
        <Skeleton height="64" />
      </Stack>
    );
  }
  const eggType = prefill.egg_type ?? preferences.eggType;
  const initial: FormValues = {
    ...EMPTY_FORM,
    email: verify.data?.user.email ?? '',
    region: prefill.region ?? preferences.region ?? 'all',
    egg_type: eggType ? EGG_TYPE_SLUGS[eggType] : 'all',
    notification_frequency: prefill.notification_frequency ?? EMPTY_FORM.notification_frequency,
    preferred_stores: prefill.preferred_stores ?? [],
  };
  return <Form key={round} initial={initial} onCreated={setCreated} />;
}
