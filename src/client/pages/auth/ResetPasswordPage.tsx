// /reset-password?token=...: the shopper's new password, from the emailed link.
import { Link, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { resetPasswordInput } from '#shared/auth.ts';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { ResetPasswordForm } from '#client/components/auth/ResetPasswordForm.tsx';

/** The user password rule with its confirmation. */
const resetForm = resetPasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  return (
    <ResetPasswordForm
      schema={resetForm}
      token={params.get('token') ?? ''}
      loginPath="/auth"
      tokenHelper="Filled in from the link in your email."
      passwordHelper="At least 6 characters."
      loadingText="Saving..."
      doneDescription="Taking you to the login page..."
      loginLabel="Go to Login"
      frame={(form) => (
        <AuthCard
          title="Choose a new password"
          description="Reset links work once, for 30 minutes. Every device signed in to your account is signed out."
          footer={
            <Text textStyle="sm" color="fg.muted" textAlign="center">
              Link expired?{' '}
              <Link asChild color="brand.fg" fontWeight="medium">
                <RouterLink to="/forgot-password">Request a new one</RouterLink>
              </Link>
            </Text>
          }
        >
          {form}
        </AuthCard>
      )}
      frameDone={(success) => <AuthCard title="Password changed">{success}</AuthCard>}
    />
  );
}
