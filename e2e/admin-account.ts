// The administrator the admin journeys use: made by the first-time setup journey
// (e2e/first-admin.spec.ts), which runs before every other journey on the fresh database.
import { E2E_SETUP_KEY } from './secrets.ts';

export const ADMIN = {
  username: 'e2e-admin',
  email: 'e2e-admin@example.test',
  password: 'Adm1n!e2e-Pass',
  role: 'admin' as const,
};
export const SETUP_KEY = E2E_SETUP_KEY;
export const PASSWORD_RULES = [
  'Password must be at least 8 characters',
  'Password must contain at least one uppercase letter',
  'Password must contain at least one number',
  'Password must contain at least one special character',
];
