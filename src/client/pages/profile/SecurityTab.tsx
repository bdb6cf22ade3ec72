// Password change (changePasswordForm). The server keeps this session and ends all others.
import { Box, Button, Card, Heading, Text } from '@chakra-ui/react';
import type { FormEvent } from 'react';
import { changePasswordForm } from '#shared/auth.ts';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { PasswordInput } from '#client/components/auth/PasswordInput.tsx';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const CHANGE_FAILED = 'Current password is incorrect or another error occurred.';

export function SecurityTab({ userId }: { userId: string }) {
  const form = useZodForm(changePasswordForm, { current_password: '', new_password: '', confirm_password: '' });
  const change = trpc.auth.changePassword.useMutation();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    change.mutate(
      { user_id: userId, current_password: input.current_password, new_password: input.new_password },
      {
        onSuccess: () => {
          form.reset();
          toaster.create({
            type: 'success',
            title: 'Password changed',
            description: 'Your password has been updated. Other devices have been signed out.',
          });
        },
        onError: (error) => {
          form.showServerErrors(error);
          toaster.create({
            type: 'error',
            title: 'Password change failed',
            description: failureMessage(error, CHANGE_FAILED),
          });
        },
      },
    );
  }

  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="lg">
          Change password
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          You stay signed in here; every other device is signed out.
        </Text>
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label="Change password" maxW={{ md: 'md' }}>
          <FormField label="Current password" required errors={form.errors.current_password}>
            <PasswordInput autoComplete="current-password" {...form.bind('current_password')} />
          </FormField>
          <FormField label="New password" required errors={form.errors.new_password} helper="At least 6 characters.">
            <PasswordInput autoComplete="new-password" {...form.bind('new_password')} />
          </FormField>
          <FormField label="Confirm new password" required errors={form.errors.confirm_password}>
            <PasswordInput autoComplete="new-password" {...form.bind('confirm_password')} />
          </FormField>
          <Box>
            <Button
              type="submit"
              loading={change.isPending}
              loadingText="Changing..."
              width={{ base: 'full', sm: 'auto' }}
            >
              Change Password
            </Button>
          </Box>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}
