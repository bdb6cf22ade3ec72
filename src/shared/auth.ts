// zod schemas of the account forms and API inputs, with the messages the screens and the API show, word for word.
// The server validates with the same schemas the forms use.
import { z } from 'zod';

const email = (message = 'Please enter a valid email address') =>
  z
    .string()
    .trim()
    .max(254, 'Email is too long')
    .pipe(z.email(message))
    .transform((v) => v.toLowerCase());

/** Long enough for any passphrase, short enough that hashing it is cheap. */
const PASSWORD_MAX = 200;
const userPassword = z
  .string()
  .min(6, 'Password must be at least 6 characters')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** Admin passwords: at least 8 characters with upper and lower case, a digit and a special character. */
export const adminPassword = z
  .string()
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
  .min(8, 'Password must be at least 8 characters')
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number')
  .regex(/[^A-Za-z0-9]/, 'Password must contain at least one special character');

const username = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may contain letters, digits, dots, dashes and underscores');

const optionalName = z
  .string()
  .trim()
  .max(100, 'Name must be at most 100 characters')
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

export const loginInput = z.object({
  email: email(),
  password: userPassword,
  remember: z.boolean().optional(),
});

export const registerInput = z.object({
  username,
  email: email(),
  password: userPassword,
  first_name: optionalName,
  last_name: optionalName,
});

export const profileInput = z.object({
  username,
  email: email(),
  first_name: optionalName,
  last_name: optionalName,
});

export const changePasswordInput = z.object({
  /** REST clients may send it; it must be the caller's own id when present. */
  user_id: z.string().max(64).optional(),
  current_password: z.string().min(1, 'Current password is required').max(PASSWORD_MAX),
  new_password: userPassword,
});

export const changePasswordForm = changePasswordInput
  .omit({ user_id: true })
  .extend({ confirm_password: z.string().min(6, 'Please confirm your new password') })
  .refine((v) => v.new_password === v.confirm_password, {
    message: "Passwords don't match",
    path: ['confirm_password'],
  });

export const requestResetInput = z.object({ email: email() });

export const resetPasswordInput = z.object({
  token: z.string().trim().min(1, 'Reset token is required').max(200),
  newPassword: userPassword,
});

export const verifyEmailInput = z.object({
  token: z.string().trim().min(1, 'Verification token is required').max(200),
});

export const adminLoginInput = z.object({
  email: email('Please enter a valid email'),
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX),
  remember: z.boolean().optional(),
});

export const adminSetupInput = z.object({
  username,
  email: email(),
  password: adminPassword,
  setupKey: z.string().min(1, 'Setup key is required').max(200),
});

export const adminSetupForm = adminSetupInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const adminResetForm = z
  .object({
    token: z.string().trim().min(1, 'Reset token is required'),
    newPassword: adminPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const userIdInput = z.object({ id: z.string().trim().min(1, 'User id is required').max(64) });

export const updateUserInput = profileInput.extend({ id: userIdInput.shape.id });

export const subscriptionIdInput = z.object({
  id: z.coerce.number({ message: 'Subscription id must be a number' }).int().positive().max(2_147_483_647),
});

/** The user fields the API returns. */
export interface PublicUser {
  id: string;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  role: 'user' | 'admin';
}
