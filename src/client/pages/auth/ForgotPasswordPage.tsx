// /forgot-password: the shopper's reset request. The answer is the same whether or not the
// email is registered (the server never says which), so the confirmation is generic.
import { Alert, Button, Input, Link, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { requestResetInput } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { FormField } from '#client/components/auth/FormField.tsx';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const REQUEST_FAILED = 'Failed to request password reset. Please try again.';

function BackToLogin() {
  return (
    <Text textStyle="sm" color="fg.muted" textAlign="center">
      Remembered it?{' '}
      <Link asChild color="brand.fg" fontWeight="medium">
        <RouterLink to="/auth">Back to login</RouterLink>
      </Link>
    </Text>
  );
}

export default function ForgotPasswordPage() {
  const form = useZodForm(requestResetInput, { email: '' });
  const request = trpc.auth.requestReset.useMutation();
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    request.mutate(input, {
      onSuccess: (result) => {
        toaster.create({ type: 'success', title: 'Password Reset Requested', description: result.message });
        setSentMessage(result.message);
      },
      onError: (error) => {
        form.showServerErrors(error);
        toaster.create({ type: 'error', title: 'Request Failed', description: failureMessage(error, REQUEST_FAILED) });
      },
    });
  }

  if (sentMessage) {
    return (
      <AuthCard title="Check your email" footer={<BackToLogin />}>
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Password Reset Requested</Alert.Title>
            <Alert.Description>{sentMessage}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Text textStyle="sm" color="fg.muted">
          The link in the email is valid for 30 minutes and works once. No email? Check your spam folder, or{' '}
          <Link asChild color="brand.fg">
            <button type="button" onClick={() => setSentMessage(null)}>
              try again
            </button>
          </Link>
          .
        </Text>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your account's email and we will send you a link to choose a new password."
      footer={<BackToLogin />}
    >
      <form onSubmit={submit} noValidate aria-label="Request a password reset">
        <FormField label="Email" required errors={form.errors.email}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
        </FormField>
        <Button type="submit" mt="5" width="full" loading={request.isPending} loadingText="Sending...">
          Send Reset Link
        </Button>
      </form>
    </AuthCard>
  );
}
