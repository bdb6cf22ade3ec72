// Profile details (profileInput), the email's verification state and the danger zone.
import {
  Badge,
  Box,
  Button,
  Card,
  Dialog,
  Flex,
  Heading,
  HStack,
  Input,
  Portal,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuMailCheck, LuSend, LuTrash2 } from 'react-icons/lu';
import { useNavigate } from 'react-router-dom';
import { profileInput, type PublicUser } from '#shared/auth.ts';
import { failureMessage } from '#client/components/auth/errors.ts';
import { Form } from '#client/components/auth/Form.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { useZodForm } from '#client/components/auth/useZodForm.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { clearSession } from '#client/lib/session.ts';
import { trpc } from '#client/lib/trpc.ts';

function EmailStatus({ user }: { user: PublicUser }) {
  const resend = trpc.auth.resendVerification.useMutation();
  return (
    <Flex gap="3" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }} wrap="wrap">
      <HStack gap="2">
        <Text textStyle="sm" color="fg.muted">
          Email status:
        </Text>
        {user.email_verified ? (
          <Badge colorPalette="green" variant="subtle">
            <LuMailCheck aria-hidden />
            Verified
          </Badge>
        ) : (
          <Badge colorPalette="orange" variant="subtle">
            Not verified
          </Badge>
        )}
      </HStack>
      {!user.email_verified && (
        <Button
          size="xs"
          variant="outline"
          loading={resend.isPending}
          loadingText="Sending..."
          disabled={resend.isSuccess}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: () =>
                toaster.create({
                  type: 'success',
                  title: 'Verification email sent',
                  description: `Check ${user.email} for a new verification link.`,
                }),
              onError: (error) =>
                toaster.create({
                  type: 'error',
                  title: 'Verification email not sent',
                  description: failureMessage(error, 'Please try again later.'),
                }),
            })
          }
        >
          <LuSend aria-hidden />
          {resend.isSuccess ? 'Verification email sent' : 'Resend verification email'}
        </Button>
      )}
    </Flex>
  );
}

function ProfileForm({ user }: { user: PublicUser }) {
  const form = useZodForm(profileInput, {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    username: user.username,
    email: user.email,
  });
  const utils = trpc.useUtils();
  const update = trpc.users.update.useMutation();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    const emailChanged = input.email !== user.email.toLowerCase();
    update.mutate(
      { id: user.id, ...input },
      {
        onSuccess: (updated) => {
          utils.auth.verify.setData(undefined, { user: updated });
          toaster.create({
            type: 'success',
            title: 'Profile updated',
            description: emailChanged
              ? `We sent a verification link to ${updated.email}.`
              : 'Your changes have been saved.',
          });
        },
        onError: (error) => {
          form.showServerErrors(error);
          toaster.create({
            type: 'error',
            title: 'Update failed',
            description: failureMessage(error, 'Your profile could not be saved. Please try again.'),
          });
        },
      },
    );
  }

  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="lg">
          Profile details
        </Heading>
        <EmailStatus user={user} />
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label="Profile details">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label="First name" errors={form.errors.first_name}>
              <Input autoComplete="given-name" {...form.bind('first_name')} />
            </FormField>
            <FormField label="Last name" errors={form.errors.last_name}>
              <Input autoComplete="family-name" {...form.bind('last_name')} />
            </FormField>
          </SimpleGrid>
          <FormField label="Username" required errors={form.errors.username}>
            <Input autoComplete="username" {...form.bind('username')} />
          </FormField>
          <FormField
            label="Email"
            required
            errors={form.errors.email}
            helper="Changing it sends a verification link to the new address."
          >
            <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
          </FormField>
          <Box>
            <Button
              type="submit"
              loading={update.isPending}
              loadingText="Saving..."
              width={{ base: 'full', sm: 'auto' }}
            >
              Save Changes
            </Button>
          </Box>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}

function DangerZone({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const remove = trpc.users.delete.useMutation();
  const navigate = useNavigate();

  function confirm() {
    remove.mutate(
      { id: user.id },
      {
        onSuccess: () => {
          clearSession();
          setOpen(false);
          toaster.create({
            type: 'success',
            title: 'Account deleted',
            description: 'Your account and its subscriptions have been removed.',
          });
          navigate('/');
        },
        onError: (error) => {
          setOpen(false);
          toaster.create({
            type: 'error',
            title: 'Account deletion failed',
            description: failureMessage(error, 'Please try again later.'),
          });
        },
      },
    );
  }

  return (
    <Card.Root variant="outline" borderColor="red.muted">
      <Card.Body gap="3">
        <Heading as="h2" size="md" color="red.fg">
          Danger zone
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          Deleting your account removes your profile, your price alert subscriptions and every signed-in session. This
          cannot be undone.
        </Text>
        <Dialog.Root
          role="alertdialog"
          open={open}
          onOpenChange={(details) => !remove.isPending && setOpen(details.open)}
          placement="center"
        >
          <Dialog.Trigger asChild>
            <Button colorPalette="red" variant="outline" alignSelf="flex-start">
              <LuTrash2 aria-hidden />
              Delete Account
            </Button>
          </Dialog.Trigger>
          <Portal>
            <Dialog.Backdrop />
            <Dialog.Positioner px="4">
              <Dialog.Content>
                <Dialog.Header>
                  <Dialog.Title>Delete your account?</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Dialog.Description>
                    This permanently deletes the account <strong>{user.username}</strong> ({user.email}), its price
                    alert subscriptions and its sessions. This cannot be undone.
                  </Dialog.Description>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" colorPalette="gray" disabled={remove.isPending}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button colorPalette="red" loading={remove.isPending} loadingText="Deleting..." onClick={confirm}>
                    Delete Account
                  </Button>
                </Dialog.Footer>
              </Dialog.Content>
            </Dialog.Positioner>
          </Portal>
        </Dialog.Root>
      </Card.Body>
    </Card.Root>
  );
}

export function ProfileTab({ user }: { user: PublicUser }) {
  return (
    <Stack gap="6">
      <ProfileForm user={user} />
      <DangerZone user={user} />
    </Stack>
  );
}
