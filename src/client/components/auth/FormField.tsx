import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface FormFieldProps {
  label: string;
  /** Every message of the field's rules that failed (admin passwords show one per rule). */
  errors?: readonly string[] | undefined;
  helper?: ReactNode;
  required?: boolean;
  children: ReactNode;
}

/** A labelled form control with its messages; the control inside gets the id and aria wiring. */
export function FormField({ label, errors, helper, required, children }: FormFieldProps) {
  const invalid = Boolean(errors?.length);
  return (
    <Field.Root invalid={invalid} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helper && !invalid && <Field.HelperText>{helper}</Field.HelperText>}
      {invalid && (
        <Field.ErrorText display="flex" flexDirection="column" alignItems="flex-start" gap="0.5">
          {errors!.map((message) => (
            <span key={message}>{message}</span>
          ))}
        </Field.ErrorText>
      )}
    </Field.Root>
  );
}
