// The admin Outbox: the emails the app queued (recipient, subject, status, times), so a newcomer
// follows every email of a local install or the demo without psql. Administrators only. The body
// of an email is shown only when the app has no RESEND_API_KEY: then nothing left the machine and
// the outbox is the mailbox; with Resend, emails went to real people and their links (unsubscribe
// and manage tokens, reset links) are theirs alone.
import { TRPCError } from '@trpc/server';
import { OUTBOX_PAGE_SIZE, outboxEmailInput, outboxListInput } from '#shared/outbox.ts';
import { adminProcedure, router } from '../trpc.ts';
import { listOutbox, outboxEmailById } from '../queries/outbox.ts';

export const outboxRouter = router({
  list: adminProcedure.input(outboxListInput).query(async ({ ctx, input }) => {
    const { emails, total } = await listOutbox(ctx.sql, {
      limit: OUTBOX_PAGE_SIZE,
      offset: (input.page - 1) * OUTBOX_PAGE_SIZE,
    });
    return {
      emails,
      total,
      page: input.page,
      pageSize: OUTBOX_PAGE_SIZE,
      transport: ctx.config.emailTransport ?? 'outbox',
    };
  }),

  byId: adminProcedure.input(outboxEmailInput).query(async ({ ctx, input }) => {
    const email = await outboxEmailById(ctx.sql, input.id, (ctx.config.emailTransport ?? 'outbox') === 'outbox');
    if (!email) throw new TRPCError({ code: 'NOT_FOUND', message: `No email ${input.id}` });
    return email;
  }),
});
