// Sessions: lucia v3 on the user_sessions table. Two lifetimes share one table: "remember me"
// sessions last 30 days with a persistent cookie; the others last 12 hours with a cookie that
// ends with the browser (src/shared/privacy.ts holds both figures; the Privacy Policy prints them). The session id's prefix says which, so validation needs no extra read.
// API clients send the same id as `Authorization: Bearer <token>`.
import { Cookie, Lucia, TimeSpan, generateIdFromEntropySize } from 'lucia';
import { PostgresJsAdapter } from '@lucia-auth/adapter-postgresql';
import { BROWSER_SESSION_HOURS, REMEMBERED_SESSION_DAYS } from '#shared/privacy.ts';
import type { Sql } from '../db.ts';
import type { SessionUser } from '../context.ts';

interface DatabaseUserAttributes {
  username: string;
  email: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
}

declare module 'lucia' {
  interface Register {
    Lucia: Lucia<Record<never, never>, Omit<SessionUser, 'id'>>;
    DatabaseUserAttributes: DatabaseUserAttributes;
  }
}

export const SESSION_COOKIE = 'eggwatch_session';
const PERSISTENT_PREFIX = 'p';
const BROWSER_PREFIX = 'b';

export interface Sessions {
  /** Creates a session; `remember` makes it last 30 days instead of 12 hours. */
  create(userId: string, remember: boolean): Promise<{ id: string; expiresAt: Date; cookie: string }>;
  validate(
    token: string,
  ): Promise<{ user: SessionUser; session: { id: string; expiresAt: Date; cookie: string | null } } | null>;
  invalidate(sessionId: string): Promise<void>;
  blankCookie(): string;
}

export function createSessions(sql: Sql, options: { secure: boolean }): Sessions {
  const adapter = new PostgresJsAdapter(sql as never, { user: 'users', session: 'user_sessions' });
  const make = (expiresIn: TimeSpan) =>
    new Lucia(adapter, {
      sessionExpiresIn: expiresIn,
      sessionCookie: {
        name: SESSION_COOKIE,
        attributes: { secure: options.secure, sameSite: 'lax', path: '/' },
      },
      // Only these columns leave the database row; the password hash never does.
      getUserAttributes: (a) => ({
        username: a.username,
        email: a.email,
        role: a.role,
        email_verified: a.email_verified,
        first_name: a.first_name,
        last_name: a.last_name,
      }),
    });
  const persistent = make(new TimeSpan(REMEMBERED_SESSION_DAYS, 'd'));
  const browser = make(new TimeSpan(BROWSER_SESSION_HOURS, 'h'));
  const forId = (id: string) => (id.startsWith(PERSISTENT_PREFIX) ? persistent : browser);
  /** lucia's cookies always carry Max-Age; a browser-session cookie must not. */
  const cookieFor = (id: string) => {
    const cookie = forId(id).createSessionCookie(id);
    if (id.startsWith(PERSISTENT_PREFIX)) return cookie.serialize();
    const { maxAge: _maxAge, expires: _expires, ...attributes } = cookie.attributes;
    return new Cookie(cookie.name, cookie.value, attributes).serialize();
  };

  return {
    async create(userId, remember) {
      const lucia = remember ? persistent : browser;
      const id = `${remember ? PERSISTENT_PREFIX : BROWSER_PREFIX}${generateIdFromEntropySize(25)}`;
      const session = await lucia.createSession(userId, {}, { sessionId: id });
      return { id: session.id, expiresAt: session.expiresAt, cookie: cookieFor(session.id) };
    },
    async validate(token) {
      if (!/^[pb][a-z0-9]{40}$/.test(token)) return null;
      const lucia = forId(token);
      const { session, user } = await lucia.validateSession(token);
      if (!session) return null;
      return {
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          role: user.role,
          email_verified: user.email_verified,
          first_name: user.first_name,
          last_name: user.last_name,
        },
        // A refreshed expiry is sent back to browsers in a new cookie.
        session: { id: session.id, expiresAt: session.expiresAt, cookie: session.fresh ? cookieFor(session.id) : null },
      };
    },
    invalidate: (sessionId) => persistent.invalidateSession(sessionId),
    blankCookie: () => persistent.createBlankSessionCookie().serialize(),
  };
}
