// The new-password form of both password resets, the shopper's (from the emailed link) and the
// administrator's (the recovery page's Reset Password tab): the token, the new password and its
// confirmation under the page's rule, the reset with its toasts, and once it succeeds a
// success alert with a link to the page's login, where it goes by itself 2 s later. Each page
// gives its rule, its texts and the frame around the form and around the success.
import { Alert, Button, Input } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { failureMessage } from './errors.ts';
import { Form } from './Form.tsx';
import { FormField } from './FormField.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { SETUP_RESET_REDIRECT_DELAY_MS, useLater } from './useLater.ts';
import { useZodForm } from './useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const RESET_FAILED = 'Failed to reset password. The token may be invalid or expired.';

export interface ResetPasswordFormProps {
  /** The page's rule for the three fields (the confirmation must match). */
  schema: z.ZodType<{ token: string; newPassword: string }>;
  /** The token the form opens with. */
  token: string;
  /** The page's login, where a reset password leads. */
  loginPath: string;
  tokenHelper?: string;
  passwordHelper: string;
  /** The submit button's text while the reset is under way. */
  loadingText: string;
  /** The success alert's line under 'Password Reset Successful'. */
  doneDescription: string;
  /** The link to the login page. */
  loginLabel: ReactNode;
  /** The page around the form (default: the form alone). */
  frame?: (form: ReactNode) => ReactNode;
  /** The page around the success alert and its link. */
  frameDone: (success: ReactNode) => ReactNode;
}

export function ResetPasswordForm({
  schema,
  token,
  loginPath,
  tokenHelper,
  passwordHelper,
  loadingText,
  doneDescription,
  loginLabel,
  frame = (form) => form,
  frameDone,
}: ResetPasswordFormProps) {
  const form = useZodForm(schema, { token, newPassword: '', confirmPassword: '' });
  const reset = trpc.auth.resetPassword.useMutation();
  const navigate = useNavigate();
  const later = useLater();

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
          later(() => navigate(loginPath), SETUP_RESET_REDIRECT_DELAY_MS);
        },
        onError: (error) => {
          form.showServerErrors(error);
          toaster.create({ type: 'error', title: 'Reset Failed', description: failureMessage(error, RESET_FAILED) });
        },
      },
    );
  }

  if (reset.isSuccess) {
    return frameDone(
      <>
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Password Reset Successful</Alert.Title>
            <Alert.Description>{doneDescription}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Button asChild variant="outline">
          <RouterLink to={loginPath}>{loginLabel}</RouterLink>
        </Button>
      </>,
    );
  }

  return frame(
    <Form onSubmit={submit} aria-label="Reset password">
      <FormField label="Reset token" required errors={form.errors.token} helper={tokenHelper}>
        <Input autoComplete="off" spellCheck={false} {...form.bind('token')} />
      </FormField>
      <FormField label="New password" required errors={form.errors.newPassword} helper={passwordHelper}>
        <PasswordInput autoComplete="new-password" {...form.bind('newPassword')} />
      </FormField>
      <FormField label="Confirm new password" required errors={form.errors.confirmPassword}>
        <PasswordInput autoComplete="new-password" {...form.bind('confirmPassword')} />
      </FormField>
      <Button type="submit" width="full" loading={reset.isPending} loadingText={loadingText}>
        Reset Password
      </Button>
    </Form>,
  );
}
