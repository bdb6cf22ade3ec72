// A ZIP code list field of the scraper screens (comma-separated, trimmed, empties
// dropped). A list the API would refuse is marked at the field itself, with the API's own message
// naming the bad entries, once the field is left or a run is asked for, and until it is fixed.
import { Field, Input, Textarea } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { zipListProblem } from '#shared/scrape.ts';
import { parseZipList } from '#shared/zip.ts';

export interface ZipList {
  text: string;
  setText: (text: string) => void;
  /** The list as sent (the server trims, deduplicates and checks it again). */
  zipCodes: string[];
  /** What is wrong with the list, once checked; null otherwise. */
  problem: string | null;
  /** Show the list's problem from now on (on leaving the field, or a Run). */
  check: () => void;
}

export function useZipList(initial: string): ZipList {
  const [text, setText] = useState(initial);
  const [checked, setChecked] = useState(false);
  const zipCodes = parseZipList(text);
  return { text, setText, zipCodes, problem: checked ? zipListProblem(zipCodes) : null, check: () => setChecked(true) };
}

export interface ZipCodesFieldProps {
  list: ZipList;
  label: string;
  helper: ReactNode;
  placeholder?: string;
  /** A refusal the server gave for the list, when it differs from the client's check. */
  serverError?: string | undefined;
  multiline?: boolean;
  maxW?: string;
}

export function ZipCodesField({ list, label, helper, placeholder, serverError, multiline, maxW }: ZipCodesFieldProps) {
  const error = list.problem ?? serverError ?? null;
  const common = {
    value: list.text,
    onChange: (event: { target: { value: string } }) => list.setText(event.target.value),
    onBlur: list.check,
    placeholder,
    autoComplete: 'off',
  };
  return (
    <Field.Root invalid={error !== null} maxW={maxW}>
      <Field.Label>{label}</Field.Label>
      {multiline ? <Textarea {...common} rows={2} autoresize /> : <Input {...common} inputMode="numeric" />}
      {error !== null ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{helper}</Field.HelperText>}
    </Field.Root>
  );
}
