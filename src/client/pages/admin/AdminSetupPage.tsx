// /admin/setup: creates the first administrator with the setup key. Setup closes for good once
// an administrator exists (admin.setupStatus), and the page says so instead of showing the form.
import { Alert, Button, Center, Input, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuCircleCheck, LuLock, LuLogIn } from 'react-icons/lu';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { adminSetupForm } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { errorCode, failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { PasswordInput } from '#client/components/auth/PasswordInput.tsx';
import { SETUP_RESET_REDIRECT_DELAY_MS, useLater } from '#client/components/auth/useLater.ts';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const SETUP_FAILED = 'Failed to complete admin setup. Please check your setup key and try again.';
const PASSWORD_RULES =
  'At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.';

function LoginButton() {
  return (
    <Button asChild>
      <RouterLink to="/admin/login">
        <LuLogIn aria-hidden />
        Go to Admin Login
      </RouterLink>
    </Button>
  );
}

function SetupClosed() {
  return (
    <AuthCard
      icon={<LuLock aria-hidden size="28" />}
      title="Admin setup is closed"
      description="An administrator account already exists, so first-time setup is no longer available."
    >
      <Text textStyle="sm" color="fg.muted">
        Sign in with an administrator account. If you have lost its password, use "Forgot password?" on the admin login
        page.
      </Text>
      <LoginButton />
    </AuthCard>
  );
}

function SetupDone() {
  return (
    <AuthCard icon={<LuCircleCheck aria-hidden size="28" />} title="Setup complete">
      <Alert.Root status="success">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Your administrator account has been created.</Alert.Title>
          <Alert.Description>Taking you to the admin login...</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <LoginButton />
    </AuthCard>
  );
}

function SetupForm({ onDone }: { onDone: () => void }) {
  const form = useZodForm(adminSetupForm, { username: '', email: '', password: '', confirmPassword: '', setupKey: '' });
  const utils = trpc.useUtils();
  const setup = trpc.admin.setup.useMutation();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    const { confirmPassword: _confirm, ...payload } = input;
    setup.mutate(payload, {
      onSuccess: () => {
        toaster.create({
          type: 'success',
          title: 'Admin Setup Successful',
          description: 'Your administrator account has been created. You can now log in.',
        });
        void utils.admin.setupStatus.invalidate();
        onDone();
      },
      onError: (error) => {
        form.showServerErrors(error);
        toaster.create({ type: 'error', title: 'Setup Failed', description: failureMessage(error, SETUP_FAILED) });
        // Someone else finished setup meanwhile: show the closed state.
        if (errorCode(error) === 'CONFLICT') void utils.admin.setupStatus.invalidate();
      },
    });
  }

  return (
    <AuthCard
      title="First-time Admin Setup"
      description="Create the first administrator account. You need the setup key from the server's configuration (ADMIN_SETUP_KEY) or its start-up log."
      footer={
        <Text textStyle="sm" color="fg.muted" textAlign="center">
          Already set up?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/admin/login">Admin login</RouterLink>
          </Link>
        </Text>
      }
    >
      <Form onSubmit={submit} aria-label="Admin setup">
        <FormField label="Username" required errors={form.errors.username}>
          <Input autoComplete="username" {...form.bind('username')} />
        </FormField>
        <FormField label="Email" required errors={form.errors.email}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
        </FormField>
        <FormField label="Password" required errors={form.errors.password} helper={PASSWORD_RULES}>
          <PasswordInput autoComplete="new-password" {...form.bind('password')} />
        </FormField>
        <FormField label="Confirm password" required errors={form.errors.confirmPassword}>
          <PasswordInput autoComplete="new-password" {...form.bind('confirmPassword')} />
        </FormField>
        <FormField label="Setup key" required errors={form.errors.setupKey}>
          <PasswordInput secretName="setup key" autoComplete="off" spellCheck={false} {...form.bind('setupKey')} />
        </FormField>
        <Button type="submit" width="full" loading={setup.isPending} loadingText="Creating administrator...">
          Create Administrator
        </Button>
      </Form>
    </AuthCard>
  );
}

export default function AdminSetupPage() {
  const status = trpc.admin.setupStatus.useQuery();
  const [done, setDone] = useState(false);
  const navigate = useNavigate();
  const later = useLater();

  if (done) return <SetupDone />;
  if (status.isPending) {
    return (
      <Center py="16" role="status" aria-label="Checking admin setup">
        <Spinner size="lg" color="brand.solid" />
      </Center>
    );
  }
  if (status.isError) {
    return (
      <Stack maxW="md" mx="auto">
        <ErrorCard
          message={failureMessage(status.error, 'Unable to check whether admin setup is open. Please try again.')}
          onRetry={() => void status.refetch()}
        />
      </Stack>
    );
  }
  if (!status.data.open) return <SetupClosed />;
  return (
    <SetupForm
      onDone={() => {
        setDone(true);
        later(() => navigate('/admin/login'), SETUP_RESET_REDIRECT_DELAY_MS);
      }}
    />
  );
}
