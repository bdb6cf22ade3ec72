// The price-alert form: email, region, egg type, optional price threshold,
// frequency (weekly by default) and optional preferred stores, checked with the API's own schema.
import { Button, Checkbox, Fieldset, Input, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  FREQUENCY_LABELS,
  NOTIFICATION_FREQUENCIES,
  subscriptionInput,
  type NotificationFrequency,
  type SubscriptionValues,
} from '#shared/subscriptions.ts';
import { EGG_TYPE_SLUGS, STORE_IDS, STORE_NAMES, type EggType, type StoreId } from '#shared/vocabulary.ts';
import { EggTypeSlugOptions, RegionOptions } from '#client/components/VocabularyOptions.tsx';
import { FormField } from '#client/components/auth/FormField.tsx';
import { fieldErrorsOf } from '#client/components/auth/errors.ts';

export interface FormValues {
  email: string;
  region: string;
  egg_type: string;
  price_threshold: string;
  notification_frequency: NotificationFrequency;
  preferred_stores: StoreId[];
  active: boolean;
}

export const EMPTY_FORM: FormValues = {
  email: '',
  region: 'all',
  egg_type: 'all',
  price_threshold: '',
  notification_frequency: 'weekly',
  preferred_stores: [],
  active: true,
};

/** A stored subscription as the form's values, for editing it. */
export function formValuesOf(subscription: {
  email: string;
  region: string | null;
  egg_type: EggType | null;
  price_threshold: number | null;
  notification_frequency: NotificationFrequency;
  preferred_stores: StoreId[];
  active: boolean;
}): FormValues {
  return {
    email: subscription.email,
    region: subscription.region ?? 'all',
    egg_type: subscription.egg_type ? EGG_TYPE_SLUGS[subscription.egg_type] : 'all',
    price_threshold: subscription.price_threshold === null ? '' : subscription.price_threshold.toFixed(2),
    notification_frequency: subscription.notification_frequency,
    preferred_stores: subscription.preferred_stores,
    active: subscription.active,
  };
}

type Errors = Partial<Record<keyof FormValues, string[]>>;

function errorsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Errors {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'email');
    (errors[name] ??= []).push(issue.message);
  }
  return errors as Errors;
}

export interface SubscriptionFormProps {
  initial: FormValues;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: SubscriptionValues) => void;
  /** Server field errors of the last failed submit. */
  serverError?: unknown;
  /** Shown above the submit button (the inline failure message). */
  notice?: ReactNode;
  /** The edit form also has an Active switch. */
  showActive?: boolean;
  /** The manage page shows the address without letting it change (the email's link proves only that address). */
  emailReadOnly?: boolean;
}

export function SubscriptionForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
  serverError,
  notice,
  showActive,
  emailReadOnly,
}: SubscriptionFormProps) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const serverErrors = serverError ? (fieldErrorsOf(serverError) as Errors) : {};
  const shown = attempted && Object.keys(errors).length ? errors : serverErrors;

  const toInput = (v: FormValues) => ({
    email: v.email,
    region: v.region,
    egg_type: v.egg_type,
    price_threshold: v.price_threshold.trim() === '' ? undefined : v.price_threshold,
    notification_frequency: v.notification_frequency,
    notification_channel: 'email' as const,
    preferred_stores: v.preferred_stores,
    active: v.active,
  });

  function update(next: Partial<FormValues>) {
    const merged = { ...values, ...next };
    setValues(merged);
    if (attempted) {
      const result = subscriptionInput.safeParse(toInput(merged));
      setErrors(result.success ? {} : errorsOf(result.error.issues));
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const result = subscriptionInput.safeParse(toInput(values));
    if (!result.success) {
      setErrors(errorsOf(result.error.issues));
      return;
    }
    setErrors({});
    onSubmit(result.data);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <FormField
          label="Email"
          errors={shown.email}
          required={!emailReadOnly}
          helper={emailReadOnly ? 'Alerts go to this address. To use another one, subscribe it anew.' : undefined}
        >
          <Input
            type="email"
            autoComplete="email"
            readOnly={emailReadOnly}
            value={values.email}
            onChange={(e) => update({ email: e.target.value })}
          />
        </FormField>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <FormField label="Region" errors={shown.region}>
            <NativeSelect.Root>
              <NativeSelect.Field value={values.region} onChange={(e) => update({ region: e.target.value })}>
                <option value="all">All Regions</option>
                <RegionOptions />
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Egg Type" errors={shown.egg_type}>
            <NativeSelect.Root>
              <NativeSelect.Field value={values.egg_type} onChange={(e) => update({ egg_type: e.target.value })}>
                <option value="all">All Egg Types</option>
                <EggTypeSlugOptions />
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField
            label="Price threshold (per dozen, optional)"
            errors={shown.price_threshold}
            helper="Alert when a dozen costs this much or less. Blank: alert on drops of 5% or more."
          >
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              placeholder="3.00"
              value={values.price_threshold}
              onChange={(e) => update({ price_threshold: e.target.value })}
            />
          </FormField>
          <FormField label="Frequency" errors={shown.notification_frequency}>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={values.notification_frequency}
                onChange={(e) => update({ notification_frequency: e.target.value as NotificationFrequency })}
              >
                {NOTIFICATION_FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {FREQUENCY_LABELS[f]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
        </SimpleGrid>
        <Fieldset.Root invalid={Boolean(shown.preferred_stores?.length)}>
          <Fieldset.Legend>Preferred stores (optional)</Fieldset.Legend>
          <Fieldset.HelperText>None chosen means every store.</Fieldset.HelperText>
          <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2" mt="2">
            {STORE_IDS.map((store) => (
              <Checkbox.Root
                key={store}
                checked={values.preferred_stores.includes(store)}
                onCheckedChange={(details) =>
                  update({
                    preferred_stores: details.checked
                      ? [...values.preferred_stores, store]
                      : values.preferred_stores.filter((s) => s !== store),
                  })
                }
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{STORE_NAMES[store]}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </SimpleGrid>
          {shown.preferred_stores && <Fieldset.ErrorText>{shown.preferred_stores.join(' ')}</Fieldset.ErrorText>}
        </Fieldset.Root>
        {showActive && (
          <Checkbox.Root
            checked={values.active}
            onCheckedChange={(details) => update({ active: details.checked === true })}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Active (send alerts)</Checkbox.Label>
          </Checkbox.Root>
        )}
        {notice}
        <Button
          type="submit"
          colorPalette="brand"
          loading={pending}
          loadingText="Saving..."
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
        >
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
