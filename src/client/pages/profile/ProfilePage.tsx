// /profile: the signed-in user's account. Without the session marker it sends
// the browser to /auth; a session the server no longer knows shows the load failure with a way
// back to the login page.
import { Box, Button, Card, Flex, Heading, HStack, Skeleton, SkeletonText, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LuBell, LuLock, LuLogIn, LuLogOut, LuTriangleAlert, LuUser } from 'react-icons/lu';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router-dom';
import { failureMessage } from '#client/components/auth/errors.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { clearSession, hasAuthToken, storeSession } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';
import { ProfileTab } from './ProfileTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';

const TABS = ['profile', 'subscriptions', 'security'] as const;
type Tab = (typeof TABS)[number];

function LoginRequired() {
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toaster.create({
      type: 'error',
      title: 'Authentication required',
      description: 'Please log in to access your profile.',
    });
  }, []);
  return <Navigate to="/auth" replace />;
}

function ProfileSkeleton() {
  return (
    <Stack gap="6" role="status" aria-label="Loading your profile">
      <Skeleton height="10" width="60%" />
      <Skeleton height="10" />
      <Card.Root variant="outline">
        <Card.Body>
          <SkeletonText noOfLines={6} gap="4" />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function ProfileLoadFailed() {
  return (
    <Card.Root role="alert" variant="outline" borderColor="red.muted" bg="red.subtle/40" maxW="xl" mx="auto">
      <Card.Body gap="3">
        <HStack gap="2" color="red.fg">
          <LuTriangleAlert aria-hidden />
          <Heading as="h1" size="md">
            Unable to load your account
          </Heading>
        </HStack>
        <Text>Failed to load user profile. Please try logging in again.</Text>
        <Button asChild alignSelf="flex-start" size="sm">
          <RouterLink to="/auth">
            <LuLogIn aria-hidden />
            Go to Login
          </RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

function SignOutButton() {
  const logout = trpc.auth.logout.useMutation();
  const navigate = useNavigate();
  return (
    <Button
      variant="outline"
      colorPalette="gray"
      loading={logout.isPending}
      loadingText="Signing out..."
      onClick={() =>
        logout.mutate(undefined, {
          onSuccess: () => {
            clearSession();
            toaster.create({ type: 'success', title: 'Logged out', description: 'You have been signed out.' });
            navigate('/');
          },
          onError: (error) => {
            toaster.create({
              type: 'error',
              title: 'Logout failed',
              description: failureMessage(error, 'Please try again.'),
            });
          },
        })
      }
    >
      <LuLogOut aria-hidden />
      Sign Out
    </Button>
  );
}

/** Tab icons make way for the labels on phones. */
function TabIcon({ icon }: { icon: ReactNode }) {
  return (
    <Box as="span" display={{ base: 'none', sm: 'inline-flex' }} aria-hidden>
      {icon}
    </Box>
  );
}

function Account() {
  // Checked with the server on every visit, not from an earlier answer in the cache.
  const verify = trpc.auth.verify.useQuery(undefined, { refetchOnMount: 'always' });
  const [params, update] = useUrlSearch();
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) ? requested : 'profile';
  const user = verify.data?.user;

  useEffect(() => {
    // Keeps userId (and an admin's userData) in step with the account, e.g. after a rename.
    if (user && hasAuthToken()) storeSession(user);
  }, [user]);

  if (verify.isError) return <ProfileLoadFailed />;
  if (!verify.isFetchedAfterMount || !user) return <ProfileSkeleton />;

  return (
    <Stack gap={{ base: '5', md: '6' }} maxW="4xl" mx="auto" width="full">
      <Flex
        gap="4"
        justify="space-between"
        align={{ base: 'flex-start', sm: 'center' }}
        direction={{ base: 'column', sm: 'row' }}
      >
        <Box minW="0" maxW="full">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
            My Account
          </Heading>
          <Text color="fg.muted" mt="1" overflowWrap="anywhere">
            Signed in as <strong>{user.username}</strong> ({user.email})
          </Text>
        </Box>
        <SignOutButton />
      </Flex>
      <Tabs.Root
        value={tab}
        onValueChange={(details) =>
          update(() => new URLSearchParams(details.value === 'profile' ? {} : { tab: details.value }), {
            replace: true,
          })
        }
        variant="line"
        lazyMount
      >
        <Tabs.List>
          <Tabs.Trigger value="profile">
            <TabIcon icon={<LuUser />} />
            Profile
          </Tabs.Trigger>
          <Tabs.Trigger value="subscriptions">
            <TabIcon icon={<LuBell />} />
            Subscriptions
          </Tabs.Trigger>
          <Tabs.Trigger value="security">
            <TabIcon icon={<LuLock />} />
            Security
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" pt="6">
          <ProfileTab key={user.id} user={user} />
        </Tabs.Content>
        <Tabs.Content value="subscriptions" pt="6">
          <SubscriptionsTab userId={user.id} />
        </Tabs.Content>
        <Tabs.Content value="security" pt="6">
          <SecurityTab userId={user.id} />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

export default function ProfilePage() {
  // Decided once on arrival: signing out here must not bounce the page to /auth first.
  const [signedIn] = useState(hasAuthToken);
  return signedIn ? <Account /> : <LoginRequired />;
}
