// /signup: the standalone registration form; on success it goes to /auth after 1.5 s.
import { Link, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { AuthCard } from '#client/components/auth/AuthCard.tsx';
import { RegisterForm } from '#client/components/auth/RegisterForm.tsx';
import { LOGIN_REDIRECT_DELAY_MS, useLater } from '#client/components/auth/useLater.ts';

export default function SignupPage() {
  const navigate = useNavigate();
  const later = useLater();
  return (
    <AuthCard
      title="Create your account"
      description="Sign up to get price alerts by email and manage them in one place."
      footer={
        <Text textStyle="sm" color="fg.muted" textAlign="center">
          Already have an account?{' '}
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/auth">Log in</RouterLink>
          </Link>
        </Text>
      }
    >
      <RegisterForm onRegistered={() => later(() => navigate('/auth'), LOGIN_REDIRECT_DELAY_MS)} />
    </AuthCard>
  );
}
