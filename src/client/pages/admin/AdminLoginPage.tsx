// /admin/login: the administrators' login. A valid login whose role is not admin is refused and
// that new session is ended at once.
import { Alert, Badge, Button, Checkbox, Flex, Input, Link } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuShieldCheck } from 'react-icons/lu';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { adminLoginInput } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { PasswordInput } from '#client/components/auth/PasswordInput.tsx';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { hasAdminSession } from '#client/lib/adminSession.ts';
import { clearSession, useSignIn } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';

const NOT_ADMIN = "You don't have administrator privileges.";

export default function AdminLoginPage() {
  const form = useZodForm(adminLoginInput, { email: '', password: '' });
  const [remember, setRemember] = useState(false);
  const [refused, setRefused] = useState(false);
  const [alreadyAdmin] = useState(hasAdminSession);
  const login = trpc.auth.login.useMutation();
  const logout = trpc.auth.logout.useMutation();
  const signIn = useSignIn();
  const navigate = useNavigate();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    setRefused(false);
    login.mutate(
      { email: input.email, password: input.password, ...(remember ? { remember: true } : {}) },
      {
        onSuccess: ({ user, token }) => {
          if (user.role !== 'admin') {
            // The login replaced any session this browser had, so it is signed out entirely.
            setRefused(true);
            clearSession();
            logout.mutate({ token });
            return;
          }
          signIn(user);
          navigate('/admin/dashboard');
        },
        onError: (error) => {
          form.showServerErrors(error);
          toaster.create({
            type: 'error',
            title: 'Login Failed',
            description: failureMessage(error, 'Invalid email or password.'),
          });
        },
      },
    );
  }

  return (
    <AuthCard
      icon={
        <Badge alignSelf="flex-start" colorPalette="brand" variant="subtle" size="lg">
          <LuShieldCheck aria-hidden />
          Administrators
        </Badge>
      }
      title="Admin Login"
      description="Sign in with your administrator account to run scrapers and manage stores."
      footer={
        <Flex gap="3" justify="space-between" wrap="wrap" textStyle="sm">
          <Link asChild color="brand.fg">
            <RouterLink to="/admin/setup">First-time setup</RouterLink>
          </Link>
          <Link asChild color="brand.fg">
            <RouterLink to="/admin/reset-password">Forgot password?</RouterLink>
          </Link>
          <Link asChild color="fg.muted">
            <RouterLink to="/">Back to home</RouterLink>
          </Link>
        </Flex>
      }
    >
      {alreadyAdmin && !refused && (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>You are already signed in as an administrator.</Alert.Title>
            <Alert.Description>
              <Link asChild color="brand.fg" fontWeight="medium">
                <RouterLink to="/admin/dashboard">Go to the admin dashboard</RouterLink>
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {refused && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{NOT_ADMIN}</Alert.Title>
        </Alert.Root>
      )}
      <Form onSubmit={submit} aria-label="Admin login">
        <FormField label="Email" required errors={form.errors.email}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
        </FormField>
        <FormField label="Password" required errors={form.errors.password}>
          <PasswordInput autoComplete="current-password" {...form.bind('password')} />
        </FormField>
        <Checkbox.Root checked={remember} onCheckedChange={(details) => setRemember(details.checked === true)}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Remember me for 30 days</Checkbox.Label>
        </Checkbox.Root>
        <Button
          type="submit"
          width="full"
          loading={login.isPending}
          loadingText="Signing in..."
          disabled={login.isPending || logout.isPending}
        >
          Sign In
        </Button>
      </Form>
    </AuthCard>
  );
}
