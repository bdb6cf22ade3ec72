// /reset-password?token=...: the shopper's new password, from the emailed link.
import { Alert, Button, Input, Link, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { resetPasswordInput } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { PasswordInput } from '#client/components/auth/PasswordInput.tsx';
import { SETUP_RESET_REDIRECT_DELAY_MS, useLater } from '#client/components/auth/useLater.ts';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const RESET_FAILED = 'Failed to reset password. The token may be invalid or expired.';

/** The user password rule with its confirmation. */
const resetForm = resetPasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const form = useZodForm(resetForm, { token: params.get('token') ?? '', newPassword: '', confirmPassword: '' });
  const reset = trpc.auth.resetPassword.useMutation();
  const navigate = useNavigate();
  const later = useLater();
  const [done, setDone] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    reset.mutate(
      { token: input.token, newPassword: input.newPassword },
      {
        onSuccess: () => {
          toaster.create({
            type: 'success',
            title: 'Password Reset Successful',
            description: 'You can now log in with your new password.',
          });
          setDone(true);
          later(() => navigate('/auth'), SETUP_RESET_REDIRECT_DELAY_MS);
        },
        onError: (error) => {
          form.showServerErrors(error);
          toaster.create({ type: 'error', title: 'Reset Failed', description: failureMessage(error, RESET_FAILED) });
        },
      },
    );
  }

  if (done) {
    return (
      <AuthCard title="Password changed">
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Password Reset Successful</Alert.Title>
            <Alert.Description>Taking you to the login page...</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Button asChild variant="outline">
          <RouterLink to="/auth">Go to Login</RouterLink>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      description="Reset links work once, for 30 minutes. Every device signed in to your account is signed out."
      footer={
        <Text textStyle="sm" color="fg.muted" textAlign="center">
          Link expired?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/forgot-password">Request a new one</RouterLink>
          </Link>
        </Text>
      }
    >
      <Form onSubmit={submit} aria-label="Reset password">
        <FormField
          label="Reset token"
          required
          errors={form.errors.token}
          helper="Filled in from the link in your email."
        >
          <Input autoComplete="off" spellCheck={false} {...form.bind('token')} />
        </FormField>
        <FormField label="New password" required errors={form.errors.newPassword} helper="At least 6 characters.">
          <PasswordInput autoComplete="new-password" {...form.bind('newPassword')} />
        </FormField>
        <FormField label="Confirm new password" required errors={form.errors.confirmPassword}>
          <PasswordInput autoComplete="new-password" {...form.bind('confirmPassword')} />
        </FormField>
        <Button type="submit" width="full" loading={reset.isPending} loadingText="Saving...">
          Reset Password
        </Button>
      </Form>
    </AuthCard>
  );
}
