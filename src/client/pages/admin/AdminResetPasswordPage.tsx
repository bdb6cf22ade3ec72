// /admin/reset-password: Request Reset (email -> token) and Reset Password (token -> new
// password) tabs. In demonstration mode (EXPOSE_RESET_TOKEN=1) the server returns the token and
// this page shows it; otherwise the token only arrives by email.
import { Alert, Box, Button, Code, Input, Link, Stack, Tabs, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuArrowRight, LuLogIn } from 'react-icons/lu';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { adminResetForm, requestResetInput } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { ResetPasswordForm } from '#client/components/auth/ResetPasswordForm.tsx';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const REQUEST_FAILED = 'Failed to request password reset. Please try again.';
const PASSWORD_RULES =
  'At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.';

type Tab = 'request' | 'reset';

function RequestReset({ onUseToken }: { onUseToken: (token: string) => void }) {
  const form = useZodForm(requestResetInput, { email: '' });
  const request = trpc.auth.requestReset.useMutation();
  const [submitted, setSubmitted] = useState<{ message: string; token: string | null } | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    request.mutate(input, {
      onSuccess: (result) => {
        toaster.create({ type: 'success', title: 'Password Reset Requested', description: result.message });
        setSubmitted({ message: result.message, token: result.resetToken ?? null });
      },
      onError: (error) => {
        form.showServerErrors(error);
        toaster.create({ type: 'error', title: 'Request Failed', description: failureMessage(error, REQUEST_FAILED) });
      },
    });
  }

  if (submitted) {
    return (
      <Stack gap="4">
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Password Reset Requested</Alert.Title>
            <Alert.Description>{submitted.message}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        {submitted.token ? (
          <Box borderWidth="1px" borderColor="amber.border" bg="amber.subtle" borderRadius="md" p="4">
            <Text textStyle="sm" fontWeight="medium" color="amber.fg">
              For demonstration, the server returned your reset token:
            </Text>
            <Code display="block" mt="2" p="2" wordBreak="break-all" whiteSpace="normal" data-testid="reset-token">
              {submitted.token}
            </Code>
            <Button mt="3" size="sm" onClick={() => onUseToken(submitted.token!)}>
              Use this token
              <LuArrowRight aria-hidden />
            </Button>
          </Box>
        ) : (
          <Text textStyle="sm" color="fg.muted">
            Check your email for the reset link or token, then open the Reset Password tab. The token is valid for 30
            minutes.
          </Text>
        )}
        <Link asChild textStyle="sm" color="brand.fg" alignSelf="flex-start">
          <button type="button" onClick={() => setSubmitted(null)}>
            Request another reset
          </button>
        </Link>
      </Stack>
    );
  }

  return (
    <Form onSubmit={submit} aria-label="Request a password reset">
      <Text textStyle="sm" color="fg.muted">
        Enter your administrator email. If it is registered, a reset token is sent to it.
      </Text>
      <FormField label="Email" required errors={form.errors.email}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
      </FormField>
      <Button type="submit" width="full" loading={request.isPending} loadingText="Requesting...">
        Request Reset
      </Button>
    </Form>
  );
}

export default function AdminResetPasswordPage() {
  const [params] = useSearchParams();
  const linkToken = params.get('token') ?? '';
  const [tab, setTab] = useState<Tab>(linkToken ? 'reset' : 'request');
  const [token, setToken] = useState(linkToken);

  return (
    <AuthCard
      title="Admin Password Recovery"
      description="Request a reset token, then choose a new password with it."
      footer={
        <Text textStyle="sm" color="fg.muted" textAlign="center">
          Remembered it?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/admin/login">Back to admin login</RouterLink>
          </Link>
        </Text>
      }
    >
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as Tab)} variant="enclosed" fitted>
        <Tabs.List>
          <Tabs.Trigger value="request">Request Reset</Tabs.Trigger>
          <Tabs.Trigger value="reset">Reset Password</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="request" pt="5">
          <RequestReset
            onUseToken={(next) => {
              setToken(next);
              setTab('reset');
            }}
          />
        </Tabs.Content>
        <Tabs.Content value="reset" pt="5">
          {/* Keyed by the token so "Use this token" fills the form in. */}
          <ResetPasswordForm
            key={token}
            schema={adminResetForm}
            token={token}
            loginPath="/admin/login"
            passwordHelper={PASSWORD_RULES}
            loadingText="Resetting..."
            doneDescription="Taking you to the admin login..."
            loginLabel={
              <>
                <LuLogIn aria-hidden />
                Go to Admin Login
              </>
            }
            frameDone={(success) => <Stack gap="4">{success}</Stack>}
          />
        </Tabs.Content>
      </Tabs.Root>
    </AuthCard>
  );
}
