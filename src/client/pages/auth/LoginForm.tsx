import { Alert, Button, HStack, Input, Link } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { loginInput } from '#shared/auth.ts';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { PasswordInput } from '#client/components/auth/PasswordInput.tsx';
import { LOGIN_REDIRECT_DELAY_MS, useLater } from '#client/components/auth/useLater.ts';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { useSignIn } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';

const LOGIN_FAILED = 'Invalid email or password.';

export function LoginForm({ email = '' }: { email?: string }) {
  const form = useZodForm(loginInput, { email, password: '' });
  const login = trpc.auth.login.useMutation();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const later = useLater();
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    setFailure(null);
    login.mutate(input, {
      onSuccess: ({ user }) => {
        signIn(user);
        toaster.create({
          type: 'success',
          title: 'Login successful!',
          description: `Welcome back, ${user.first_name || user.username}!`,
        });
        later(() => navigate('/'), LOGIN_REDIRECT_DELAY_MS);
      },
      onError: (error) => {
        form.showServerErrors(error);
        const message = failureMessage(error, LOGIN_FAILED);
        toaster.create({ type: 'error', title: 'Login failed', description: message });
        setFailure(message);
      },
    });
  }

  return (
    <Form onSubmit={submit} aria-label="Log in">
      {failure && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{failure}</Alert.Title>
        </Alert.Root>
      )}
      <FormField label="Email" required errors={form.errors.email}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
      </FormField>
      <FormField label="Password" required errors={form.errors.password}>
        <PasswordInput autoComplete="current-password" {...form.bind('password')} />
      </FormField>
      <HStack justify="flex-end">
        <Link asChild textStyle="sm" color="brand.fg">
          <RouterLink to="/forgot-password">Forgot password?</RouterLink>
        </Link>
      </HStack>
      <Button
        type="submit"
        loading={login.isPending}
        loadingText="Logging in..."
        disabled={login.isPending || login.isSuccess}
        width="full"
      >
        {login.isSuccess ? 'Redirecting...' : 'Log In'}
      </Button>
    </Form>
  );
}
