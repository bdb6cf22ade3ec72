// /auth: Login and Register tabs. ?tab=register opens the Register tab.
import { Link, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { RegisterForm } from '#client/components/auth/RegisterForm.tsx';
import { LOGIN_REDIRECT_DELAY_MS, useLater } from '#client/components/auth/useLater.ts';
import { LoginForm } from './LoginForm.tsx';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';

type Tab = 'login' | 'register';

export default function AuthPage() {
  const [params, update] = useUrlSearch();
  const tab: Tab = params.get('tab') === 'register' ? 'register' : 'login';
  const [registeredEmail, setRegisteredEmail] = useState('');
  const later = useLater();

  const showTab = (next: Tab) =>
    update(() => new URLSearchParams(next === 'register' ? { tab: 'register' } : {}), { replace: true });

  function registered(email: string) {
    setRegisteredEmail(email);
    later(() => showTab('login'), LOGIN_REDIRECT_DELAY_MS);
  }

  return (
    <AuthCard title="Welcome to EggWatch" description="Log in to manage your price alerts, or create a free account.">
      <Tabs.Root
        value={tab}
        onValueChange={(details) => showTab(details.value as Tab)}
        variant="enclosed"
        fitted
        lazyMount
        unmountOnExit
      >
        <Tabs.List>
          <Tabs.Trigger value="login">Login</Tabs.Trigger>
          <Tabs.Trigger value="register">Register</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="login" pt="5">
          {/* Keyed so that the email registered a moment ago is filled in. */}
          <LoginForm key={registeredEmail} email={registeredEmail} />
          <Text textStyle="sm" color="fg.muted" mt="5" textAlign="center">
            Don't have an account?{' '}
            <Link asChild color="brand.fg" fontWeight="medium">
              <RouterLink to="/signup">Sign up</RouterLink>
            </Link>
          </Text>
        </Tabs.Content>
        <Tabs.Content value="register" pt="5">
          <RegisterForm onRegistered={registered} />
          <Text textStyle="sm" color="fg.muted" mt="5" textAlign="center">
            Already have an account?{' '}
            <Link asChild color="brand.fg" fontWeight="medium">
              <RouterLink to="/auth" replace>
                Log in
              </RouterLink>
            </Link>
          </Text>
        </Tabs.Content>
      </Tabs.Root>
    </AuthCard>
  );
}
