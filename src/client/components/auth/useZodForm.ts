// Form state checked with the shared zod schemas (src/shared/auth.ts), so a form shows exactly
// the messages the server would answer with. Fields are checked on submit; after a first
// attempt they are re-checked as the user types, so a fixed field clears its message at once.
import { useCallback, useState, type ChangeEvent } from 'react';
import type { z } from 'zod';
import { fieldErrorsOf } from './errors.ts';

export type FieldErrors<V> = Partial<Record<keyof V & string, string[]>>;

function issuesByField<V>(error: z.ZodError): FieldErrors<V> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? '');
    const list = (errors[name] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors as FieldErrors<V>;
}

export interface ZodForm<V extends Record<string, string>, Out> {
  values: V;
  errors: FieldErrors<V>;
  /** Props for a text input bound to one field. */
  bind: (name: keyof V & string) => {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  setValue: (name: keyof V & string, value: string) => void;
  /** The parsed values, or null after showing the field errors. */
  validate: () => Out | null;
  /** Shows the server's per-field messages; true when there were any. */
  showServerErrors: (error: unknown) => boolean;
  reset: (values?: Partial<V>) => void;
}

export function useZodForm<S extends z.ZodType, V extends Record<string, string>>(
  schema: S,
  initial: V,
): ZodForm<V, z.output<S>> {
  type Out = z.output<S>;
  const [blank] = useState(initial);
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [attempted, setAttempted] = useState(false);

  const setValue = useCallback(
    (name: keyof V & string, value: string) => {
      const next = { ...values, [name]: value };
      setValues(next);
      if (attempted) {
        const result = schema.safeParse(next);
        setErrors(result.success ? {} : issuesByField<V>(result.error));
      }
    },
    [attempted, schema, values],
  );

  const bind = useCallback(
    (name: keyof V & string) => ({
      name,
      value: values[name] ?? '',
      onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.value),
    }),
    [setValue, values],
  );

  const validate = useCallback((): Out | null => {
    setAttempted(true);
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data as Out;
    }
    setErrors(issuesByField<V>(result.error));
    return null;
  }, [schema, values]);

  const showServerErrors = useCallback((error: unknown) => {
    const fields = fieldErrorsOf(error);
    if (Object.keys(fields).length === 0) return false;
    setErrors(fields as FieldErrors<V>);
    return true;
  }, []);

  const reset = useCallback(
    (next?: Partial<V>) => {
      setValues({ ...blank, ...next });
      setErrors({});
      setAttempted(false);
    },
    [blank],
  );

  return { values, errors, bind, setValue, validate, showServerErrors, reset };
}
