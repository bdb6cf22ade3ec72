// The registration form of the /auth Register tab and the standalone /signup page.
import { Alert, Button, Input, SimpleGrid } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { registerInput } from '#shared/auth.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { failureMessage } from './errors.ts';
import { Form } from './Form.tsx';
import { FormField } from './FormField.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { useZodForm } from './useZodForm.ts';

const REGISTRATION_FAILED = 'Please try again with different credentials.';

export interface RegisterFormProps {
  /** Called with the registered email once the account is created. */
  onRegistered: (email: string) => void;
}

export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const form = useZodForm(registerInput, { username: '', email: '', password: '', first_name: '', last_name: '' });
  const register = trpc.auth.register.useMutation();
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    setFailure(null);
    register.mutate(input, {
      onSuccess: (result) => {
        toaster.create({ type: 'success', title: 'Registration successful!', description: result.message });
        onRegistered(input.email);
      },
      onError: (error) => {
        form.showServerErrors(error);
        const message = failureMessage(error, REGISTRATION_FAILED);
        toaster.create({ type: 'error', title: 'Registration failed', description: message });
        setFailure(message);
      },
    });
  }

  const busy = register.isPending || register.isSuccess;
  return (
    <Form onSubmit={submit} aria-label="Register">
      {failure && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{failure}</Alert.Title>
            <Alert.Description>The email address or username may already be in use.</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <FormField label="First name (optional)" errors={form.errors.first_name}>
          <Input autoComplete="given-name" {...form.bind('first_name')} />
        </FormField>
        <FormField label="Last name (optional)" errors={form.errors.last_name}>
          <Input autoComplete="family-name" {...form.bind('last_name')} />
        </FormField>
      </SimpleGrid>
      <FormField
        label="Username"
        required
        errors={form.errors.username}
        helper="At least 3 characters: letters, digits, dots, dashes or underscores."
      >
        <Input autoComplete="username" {...form.bind('username')} />
      </FormField>
      <FormField label="Email" required errors={form.errors.email}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.bind('email')} />
      </FormField>
      <FormField label="Password" required errors={form.errors.password} helper="At least 6 characters.">
        <PasswordInput autoComplete="new-password" {...form.bind('password')} />
      </FormField>
      <Button type="submit" loading={register.isPending} loadingText="Creating account..." disabled={busy} width="full">
        Create Account
      </Button>
    </Form>
  );
}
