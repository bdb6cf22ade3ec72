// Reading tRPC failures for forms and toasts. The server's messages are written for people
// and shown as they are; a failure that never reached it (offline, a proxy page) falls back to the screen's
// default text, except the 'status: body' messages for non-OK responses.
import { TRPCClientError } from '@trpc/client';

interface ErrorData {
  code?: string;
  fieldErrors?: Record<string, string[] | undefined>;
}

function dataOf(error: unknown): ErrorData | undefined {
  return error instanceof TRPCClientError ? (error.data as ErrorData | undefined) : undefined;
}

export function errorCode(error: unknown): string | undefined {
  return dataOf(error)?.code;
}

export function isUnauthorized(error: unknown): boolean {
  return errorCode(error) === 'UNAUTHORIZED';
}

/** The server's message for a failed call, or `fallback` when there is none to show. */
export function failureMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error) || !error.message) return fallback;
  const data = dataOf(error);
  if (data) {
    // A refused input: the fields' own messages, without the field names the API adds.
    const fields = Object.values(fieldErrorsOf(error)).flat();
    return fields.length ? [...new Set(fields)].join(' ') : error.message;
  }
  return /^\d{3}: /.test(error.message) ? error.message : fallback;
}

/** zod's per-field messages from the server's error formatter, when the input was refused. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  const fields = dataOf(error)?.fieldErrors ?? {};
  const result: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(fields)) if (messages?.length) result[name] = messages;
  return result;
}
