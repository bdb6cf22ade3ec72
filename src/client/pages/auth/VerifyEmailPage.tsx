// /verify-email?token=...: the link from the verification email. Verifies once on load.
import { Alert, Button, Center, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { LuHouse, LuLogIn, LuUser } from 'react-icons/lu';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { useSignedIn } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';

const VERIFY_FAILED = 'This verification link is invalid or has expired.';

function NextSteps({ signedIn }: { signedIn: boolean }) {
  return (
    <HStack gap="3" flexWrap="wrap">
      {signedIn ? (
        <Button asChild>
          <RouterLink to="/profile">
            <LuUser aria-hidden />
            Go to My Account
          </RouterLink>
        </Button>
      ) : (
        <Button asChild>
          <RouterLink to="/auth">
            <LuLogIn aria-hidden />
            Log In
          </RouterLink>
        </Button>
      )}
      <Button asChild variant="outline">
        <RouterLink to="/">
          <LuHouse aria-hidden />
          Home
        </RouterLink>
      </Button>
    </HStack>
  );
}

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const signedIn = useSignedIn();
  const utils = trpc.useUtils();
  const verify = trpc.auth.verifyEmail.useMutation({
    // A profile loaded earlier shows the new verified state.
    onSuccess: () => utils.auth.verify.invalidate(),
  });
  const { mutate } = verify;
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    // Once per token: a verification link works a single time.
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    mutate({ token });
  }, [token, mutate]);

  if (!token) {
    return (
      <AuthCard title="Verification failed">
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>This verification link is incomplete. Open the link from your email again.</Alert.Title>
        </Alert.Root>
        <NextSteps signedIn={signedIn} />
      </AuthCard>
    );
  }

  if (verify.isSuccess) {
    return (
      <AuthCard title="Email verified">
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Title>Your email address is verified. Thank you!</Alert.Title>
        </Alert.Root>
        <NextSteps signedIn={signedIn} />
      </AuthCard>
    );
  }

  if (verify.isError) {
    return (
      <AuthCard title="Verification failed">
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{failureMessage(verify.error, VERIFY_FAILED)}</Alert.Title>
            <Alert.Description>
              {signedIn
                ? 'You can send a new link from your account page.'
                : 'Log in to send a new link from your account page.'}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <NextSteps signedIn={signedIn} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Verifying your email">
      <Center py="6">
        <Stack align="center" gap="3" role="status">
          <Spinner size="lg" color="brand.solid" />
          <Text color="fg.muted">Checking your verification link...</Text>
        </Stack>
      </Center>
    </AuthCard>
  );
}
