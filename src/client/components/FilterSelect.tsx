// A labelled single-choice filter on a native select: keyboard and screen-reader friendly on
// every device, and the phone's own picker on small screens.
import { Field, NativeSelect } from '@chakra-ui/react';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  label: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  disabled?: boolean;
}

export function FilterSelect({ label, value, options, onChange, disabled }: FilterSelectProps) {
  return (
    <Field.Root disabled={disabled}>
      <Field.Label fontSize="sm" color="fg.muted">
        {label}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)} bg="bg">
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
