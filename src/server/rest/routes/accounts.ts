// Accounts and sessions: the body (and the path's id) is the procedure's input.
import { z } from 'zod';
import {
  adminSetupInput,
  changePasswordInput,
  loginInput,
  profileInput,
  registerInput,
  requestResetInput,
  resetPasswordInput,
  verifyEmailInput,
} from '#shared/auth.ts';
import { route, type RestRoute } from '../route.ts';
import { subscriptionSchema } from './alerts.ts';

const USER_ID = "The user's id (user.id of the login's answer)";
const OTHERS = "No such user, or another user's account (for anyone but an admin)";

const ok = z.object({ success: z.literal(true) });
const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_verified: z.boolean(),
  role: z.enum(['user', 'admin']),
});

export const accountRoutes: RestRoute[] = [
  route({
    method: 'POST',
    path: '/auth/register',
    summary: 'Create an account; a verification email follows',
    procedure: 'auth.register',
    body: registerInput,
    response: z.object({ message: z.string() }),
    status: 201,
    errors: { 409: 'The username is taken', 429: 'Too many registrations from this address' },
  }),
  route({
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in: returns a session token (use as Bearer) and the user, and sets the session cookie',
    procedure: 'auth.login',
    body: loginInput,
    response: z.object({ token: z.string(), expiresAt: z.string(), user: userSchema }),
    errors: { 401: 'Wrong email or password', 429: 'Too many attempts from this address or for this account' },
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    summary: 'End the current session (or the one whose token is given)',
    procedure: 'auth.logout',
    body: z.object({ token: z.string().max(200).optional() }),
    response: ok,
  }),
  route({
    method: 'GET',
    path: '/auth/verify',
    summary: 'The signed-in user of the session',
    procedure: 'auth.verify',
    response: z.object({ user: userSchema }),
    auth: 'user',
  }),
  route({
    method: 'POST',
    path: '/auth/change-password',
    summary: "Change the signed-in user's password; other sessions end",
    procedure: 'auth.changePassword',
    body: changePasswordInput,
    response: ok,
    auth: 'user',
    errors: { 403: "user_id is another user's" },
  }),
  route({
    method: 'POST',
    path: '/auth/request-reset',
    summary: 'Email a password reset link (the same answer whether or not the email is registered)',
    procedure: 'auth.requestReset',
    body: requestResetInput,
    response: z.object({ message: z.string(), resetToken: z.string().optional() }),
    errors: { 429: 'Too many requests from this address or for this account' },
  }),
  route({
    method: 'POST',
    path: '/auth/reset-password',
    summary: 'Set a new password with a reset token; every session ends',
    procedure: 'auth.resetPassword',
    body: resetPasswordInput,
    response: ok,
    errors: { 429: 'Too many attempts from this address' },
  }),
  route({
    method: 'POST',
    path: '/auth/verify-email',
    summary: 'Confirm an email address with the token from the verification email',
    procedure: 'auth.verifyEmail',
    body: verifyEmailInput,
    response: ok,
  }),
  route({
    method: 'POST',
    path: '/admin/setup',
    summary: 'Create the first administrator with the setup key',
    procedure: 'admin.setup',
    body: adminSetupInput,
    response: z.object({ user: userSchema.pick({ id: true, username: true, email: true, role: true }) }),
    status: 201,
    errors: {
      403: 'Wrong setup key',
      409: 'An administrator exists already, or the email or username is taken',
      429: 'Too many attempts from this address',
    },
  }),
  route({
    method: 'GET',
    path: '/users/:id/subscriptions',
    summary: "A user's price alert subscriptions, newest first (that user or an admin)",
    procedure: 'users.alerts',
    params: { id: USER_ID },
    response: z.array(subscriptionSchema),
    auth: 'user',
    errors: { 404: OTHERS },
    list: {},
  }),
  route({
    method: 'PUT',
    path: '/users/:id',
    summary: "Update a user's profile (that user or an admin); a new email address is verified again",
    procedure: 'users.update',
    params: { id: USER_ID },
    body: profileInput,
    response: userSchema,
    auth: 'user',
    errors: { 404: OTHERS, 409: 'The username or email address is taken' },
  }),
  route({
    method: 'DELETE',
    path: '/users/:id',
    summary: 'Delete an account and its data (that user or an admin)',
    procedure: 'users.delete',
    params: { id: USER_ID },
    response: ok,
    auth: 'user',
    errors: { 404: OTHERS },
  }),
];
