// /admin/dashboard: verifies the session on load: no marker or an invalid session goes
// to /admin/login, a signed-in non-admin goes to / with 'Access Denied'. The server checks the
// role again on every admin call. The open tab lives in the URL (?tab=outbox), so a reload or a
// link (the demo's log names the Outbox) opens it.
import {
  Box,
  Button,
  Center,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LuDatabase, LuInbox, LuLogOut, LuMapPinned, LuSettings, LuStore } from 'react-icons/lu';
import { Navigate, useNavigate } from 'react-router-dom';
import type { PublicUser } from '#shared/auth.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage, isUnauthorized } from '#client/components/auth/errors.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { clearSession, hasAuthToken, storeSession } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';
import { useSearchParam } from '#client/lib/useSearchParam.ts';
import { CoverageTab } from './CoverageTab.tsx';
import { OutboxTab } from './OutboxTab.tsx';
import { ScrapersTab } from './ScrapersTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { StoresTab } from './StoresTab.tsx';

function AccessDenied() {
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toaster.create({ type: 'error', title: 'Access Denied', description: 'You do not have administrator privileges' });
  }, []);
  return <Navigate to="/" replace />;
}

function Overview() {
  const overview = trpc.admin.overview.useQuery();
  const items: Array<{ label: string; value: number | undefined }> = [
    { label: 'Users', value: overview.data?.users },
    { label: 'Administrators', value: overview.data?.admins },
    { label: 'Subscriptions', value: overview.data?.subscriptions },
  ];
  if (overview.isError) {
    return (
      <Text textStyle="sm" color="fg.muted" role="alert">
        Account counts are unavailable.{' '}
        <Button size="xs" variant="plain" colorPalette="brand" onClick={() => void overview.refetch()} px="0">
          Retry
        </Button>
      </Text>
    );
  }
  return (
    <SimpleGrid
      as="dl"
      columns={3}
      gap={{ base: '2', md: '4' }}
      aria-label="Accounts overview"
      aria-busy={overview.isPending}
    >
      {items.map((item) => (
        <Box key={item.label} borderWidth="1px" borderRadius="md" px={{ base: '3', md: '4' }} py="3" bg="bg.panel">
          <Text as="dt" textStyle="xs" color="fg.muted" truncate>
            {item.label}
          </Text>
          <Box as="dd" textStyle={{ base: 'xl', md: '2xl' }} fontWeight="semibold">
            {item.value === undefined ? <Skeleton height="7" width="10" mt="1" /> : item.value.toLocaleString('en-US')}
          </Box>
        </Box>
      ))}
    </SimpleGrid>
  );
}

function TabLabel({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <>
      <Box as="span" display={{ base: 'none', sm: 'inline-flex' }} aria-hidden>
        {icon}
      </Box>
      {children}
    </>
  );
}

function SignOutButton() {
  const logout = trpc.auth.logout.useMutation();
  const navigate = useNavigate();
  return (
    <Button
      variant="outline"
      colorPalette="gray"
      size="sm"
      loading={logout.isPending}
      loadingText="Signing out..."
      onClick={() =>
        logout.mutate(undefined, {
          onSuccess: () => {
            clearSession();
            toaster.create({ type: 'success', title: 'Logged out', description: 'You have been signed out.' });
            navigate('/admin/login');
          },
          onError: (error) =>
            toaster.create({
              type: 'error',
              title: 'Logout failed',
              description: failureMessage(error, 'Please try again.'),
            }),
        })
      }
    >
      <LuLogOut aria-hidden />
      Sign Out
    </Button>
  );
}

const TABS = ['scrapers', 'coverage', 'stores', 'settings', 'outbox'] as const;
type Tab = (typeof TABS)[number];

function Dashboard({ user }: { user: PublicUser }) {
  const [params, setParam] = useSearchParam();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'scrapers';
  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <Flex
        gap="4"
        justify="space-between"
        align={{ base: 'flex-start', sm: 'center' }}
        direction={{ base: 'column', sm: 'row' }}
      >
        <Box minW="0" maxW="full">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
            Admin Dashboard
          </Heading>
          <Text color="fg.muted" mt="1" overflowWrap="anywhere">
            Signed in as <strong>{user.username}</strong> ({user.email})
          </Text>
        </Box>
        <SignOutButton />
      </Flex>
      <Overview />
      <Tabs.Root
        value={tab}
        onValueChange={(details) => setParam('tab', details.value === 'scrapers' ? '' : details.value)}
        variant="line"
        lazyMount
      >
        <Tabs.List>
          <Tabs.Trigger value="scrapers">
            <TabLabel icon={<LuDatabase />}>Data Scrapers</TabLabel>
          </Tabs.Trigger>
          <Tabs.Trigger value="coverage">
            <TabLabel icon={<LuMapPinned />}>Coverage</TabLabel>
          </Tabs.Trigger>
          <Tabs.Trigger value="stores">
            <TabLabel icon={<LuStore />}>Stores</TabLabel>
          </Tabs.Trigger>
          <Tabs.Trigger value="settings">
            <TabLabel icon={<LuSettings />}>Settings</TabLabel>
          </Tabs.Trigger>
          <Tabs.Trigger value="outbox">
            <TabLabel icon={<LuInbox />}>Outbox</TabLabel>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="scrapers" pt="6">
          <ScrapersTab />
        </Tabs.Content>
        <Tabs.Content value="coverage" pt="6">
          <CoverageTab />
        </Tabs.Content>
        <Tabs.Content value="stores" pt="6">
          <StoresTab />
        </Tabs.Content>
        <Tabs.Content value="settings" pt="6">
          <SettingsTab />
        </Tabs.Content>
        <Tabs.Content value="outbox" pt="6">
          <OutboxTab />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

function VerifiedDashboard() {
  // Checked with the server on every visit, not from an earlier answer in the cache.
  const verify = trpc.auth.verify.useQuery(undefined, { refetchOnMount: 'always' });
  const user = verify.data?.user;

  useEffect(() => {
    if (user?.role === 'admin' && hasAuthToken()) storeSession(user);
  }, [user]);

  if (verify.isError) {
    if (isUnauthorized(verify.error)) return <Navigate to="/admin/login" replace />;
    return (
      <ErrorCard
        message={failureMessage(verify.error, 'Unable to check your session. Please try again.')}
        onRetry={() => void verify.refetch()}
      />
    );
  }
  if (!verify.isFetchedAfterMount || !user) {
    return (
      <Center py="16" role="status" aria-label="Checking your session">
        <HStack gap="3" color="fg.muted">
          <Spinner color="brand.solid" />
          <Text>Checking your session...</Text>
        </HStack>
      </Center>
    );
  }
  if (user.role !== 'admin') return <AccessDenied />;
  return <Dashboard user={user} />;
}

export default function AdminDashboardPage() {
  const [signedIn] = useState(hasAuthToken);
  return signedIn ? <VerifiedDashboard /> : <Navigate to="/admin/login" replace />;
}
