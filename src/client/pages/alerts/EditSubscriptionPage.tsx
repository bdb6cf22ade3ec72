// /notifications/edit/{id}: the subscription form, prefilled, saving changes. Only the owner or an
// admin may see it; everyone else (signed out included) gets the 404 page, as the server answers.
import { Center, HStack, Spinner, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuBellRing } from 'react-icons/lu';
import { useNavigate, useParams } from 'react-router-dom';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { errorCode, failureMessage } from '#client/components/auth/errors.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { hasAuthToken } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';
import NotFoundPage from '#client/pages/not-found/NotFoundPage.tsx';
import { SubscriptionForm, formValuesOf } from './SubscriptionForm.tsx';

function Editor({ id }: { id: number }) {
  const subscription = trpc.alerts.byId.useQuery({ id }, { retry: false, refetchOnMount: 'always' });
  const update = trpc.alerts.update.useMutation();
  const utils = trpc.useUtils();
  const navigate = useNavigate();

  if (subscription.isError) {
    const code = errorCode(subscription.error);
    if (code === 'NOT_FOUND' || code === 'UNAUTHORIZED' || code === 'BAD_REQUEST') return <NotFoundPage />;
    return (
      <ErrorCard
        message={failureMessage(subscription.error, 'Failed to load the subscription. Please try again.')}
        onRetry={() => void subscription.refetch()}
      />
    );
  }
  if (subscription.isPending) {
    return (
      <Center py="16" role="status" aria-label="Loading the subscription">
        <HStack gap="3" color="fg.muted">
          <Spinner color="brand.solid" />
          <Text>Loading the subscription...</Text>
        </HStack>
      </Center>
    );
  }
  const s = subscription.data;
  return (
    <AuthCard
      title="Edit Price Alert"
      description="Change what this alert watches and how often it writes."
      maxW="xl"
      icon={<LuBellRing aria-hidden size="28" />}
    >
      <SubscriptionForm
        showActive
        initial={formValuesOf(s)}
        submitLabel="Save Changes"
        pending={update.isPending}
        serverError={update.error}
        notice={
          update.isError ? (
            <Text color="fg.error" role="alert" textStyle="sm">
              {failureMessage(update.error, 'There was a problem saving your subscription. Please try again.')}
            </Text>
          ) : null
        }
        onSubmit={(values) =>
          update.mutate(
            { ...values, id },
            {
              onSuccess: (result) => {
                toaster.create({ type: 'success', title: 'Subscription updated', description: result.message });
                void utils.users.alerts.invalidate();
                void utils.alerts.byId.invalidate({ id });
                navigate('/profile?tab=subscriptions');
              },
              onError: (error) =>
                toaster.create({
                  type: 'error',
                  title: 'Update failed',
                  description: failureMessage(error, 'Please try again later.'),
                }),
            },
          )
        }
      />
    </AuthCard>
  );
}

export default function EditSubscriptionPage() {
  const { id } = useParams();
  const [signedIn] = useState(hasAuthToken);
  const numeric = Number(id);
  if (!signedIn || !Number.isSafeInteger(numeric) || numeric <= 0) return <NotFoundPage />;
  return <Editor id={numeric} />;
}
