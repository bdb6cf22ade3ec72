// Local preferences: location, product, favourite stores and
// notification flags, preloaded from and saved to browser storage. Saving validates with the
// shared schema (the ZIP code is optional), stores the values, shows 'Preferences saved' for 3 s
// and returns to /. The notification switches are price alerts (usePreferenceAlerts): saving sets
// up or pauses a signed-in shopper's subscription, and takes a visitor who turned one on to the
// alert form, filled in.
import {
  Box,
  Button,
  Card,
  Checkbox,
  Field,
  Fieldset,
  HStack,
  Heading,
  Input,
  Link,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
} from '@chakra-ui/react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LuBell, LuEgg, LuMapPin, LuStore } from 'react-icons/lu';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PREFERENCE_ALERTS, preferencesSchema, type PreferenceAlert, type Preferences } from '#shared/preferences.ts';
import { CARD_COUNTS, EGG_TYPE_SLUGS, REGION_LABELS, parseEggType, parseRegion } from '#shared/vocabulary.ts';
import { EggTypeSlugOptions, RegionOptions } from '#client/components/VocabularyOptions.tsx';
import { zipToRegion } from '#shared/zip.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { StoreLogo } from '#client/components/StoreLogo.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { loadPreferences, savePreferences } from '#client/lib/preferences.ts';
import { trpc } from '#client/lib/trpc.ts';
import { usePreferenceAlerts, type PreferenceAlertsApi } from './usePreferenceAlerts.ts';

/** Saves show their toast for 3 s. */
const SAVED_TOAST_MS = 3000;

type FieldErrors = Partial<Record<keyof Preferences, string>>;

/** The form's starting values: saved ones, with region and egg type in the spellings the selects use. */
function initialForm(): Preferences {
  const saved = loadPreferences();
  const type = parseEggType(saved.preferredEggType);
  return {
    ...saved,
    region: parseRegion(saved.region) ?? '',
    preferredEggType: type ? EGG_TYPE_SLUGS[type] : '',
  };
}

function Section({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card.Root variant="outline" height="full">
      <Card.Header pb="2">
        <HStack gap="2">
          <Box color="brand.fg" aria-hidden>
            {icon}
          </Box>
          <Heading as="h2" size="md">
            {title}
          </Heading>
        </HStack>
      </Card.Header>
      <Card.Body pt="2" gap="4">
        {children}
      </Card.Body>
    </Card.Root>
  );
}

function Select({
  value,
  onChange,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <NativeSelect.Root>
      <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {children}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function FavouriteStores({
  selected,
  onToggle,
}: {
  selected: readonly string[];
  onToggle: (storeId: string, checked: boolean) => void;
}) {
  const stores = trpc.stores.list.useQuery();
  if (stores.isError)
    return (
      <ErrorCard title="Unable to load stores" message={stores.error.message} onRetry={() => void stores.refetch()} />
    );
  return (
    <Fieldset.Root>
      <Fieldset.Legend fontSize="sm" color="fg.muted" mb="2">
        Choose the stores you shop at
      </Fieldset.Legend>
      <Fieldset.Content mt="0">
        {stores.isPending ? (
          <Stack gap="3" role="status" aria-label="Loading stores">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height="8" width="48" />
            ))}
          </Stack>
        ) : (
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
            {stores.data.map((store) => (
              <Checkbox.Root
                key={store.id}
                checked={selected.includes(store.id)}
                onCheckedChange={(details) => onToggle(store.id, details.checked === true)}
                colorPalette="brand"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>
                  <HStack gap="2">
                    <StoreLogo name={store.store_name} url={store.store_logo_url} size="xs" decorative />
                    <span>{store.store_name}</span>
                  </HStack>
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
          </SimpleGrid>
        )}
      </Fieldset.Content>
    </Fieldset.Root>
  );
}

function Toggle({
  label,
  description,
  checked,
  onChange,
  children,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <Stack gap="1.5">
      <Switch.Root
        checked={checked}
        onCheckedChange={(details) => onChange(details.checked)}
        colorPalette="brand"
        alignItems="flex-start"
      >
        <Switch.HiddenInput />
        <Switch.Control mt="0.5" />
        <Switch.Label>
          <Text as="span" display="block" fontWeight="medium">
            {label}
          </Text>
          <Text as="span" display="block" fontSize="sm" color="fg.muted" fontWeight="normal">
            {description}
          </Text>
        </Switch.Label>
      </Switch.Root>
      {children}
    </Stack>
  );
}

function InlineLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link asChild color="brand.fg" fontWeight="medium" textDecoration="underline">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

/** What saving will do with a switch's price alert, or what it stands for now. */
function AlertNote({ alert, on, alerts }: { alert: PreferenceAlert; on: boolean; alerts: PreferenceAlertsApi }) {
  const note = alertNote(alert, on, alerts);
  return note ? (
    <Text fontSize="sm" color="fg.muted" ps="12">
      {note}
    </Text>
  ) : null;
}

function alertNote(alert: PreferenceAlert, on: boolean, alerts: PreferenceAlertsApi): ReactNode {
  if (alerts.loading) return null;
  const subscription = alerts.linked[alert];
  if (alerts.email === null) {
    return on ? (
      <>
        Alerts go by email: saving takes you to the alert form, filled in from these preferences.{' '}
        <InlineLink to="/auth">Sign in</InlineLink> to have this switch set it up instead.
      </>
    ) : null;
  }
  if (!subscription) return on ? <>Saving sets up an email alert to {alerts.email}.</> : null;
  const manage = <InlineLink to={`/notifications/edit/${subscription.id}`}>Manage this alert</InlineLink>;
  if (!on)
    return subscription.active ? (
      <>
        Saving pauses the alert to {subscription.email}. {manage}
      </>
    ) : (
      <>Paused. {manage}</>
    );
  if (!subscription.active)
    return (
      <>
        Paused: saving turns the alert to {subscription.email} on again. {manage}
      </>
    );
  return subscription.confirmed_at ? (
    <>
      Sending to {subscription.email}. {manage}
    </>
  ) : (
    <>
      Waiting for {subscription.email} to be confirmed: check your inbox. {manage}
    </>
  );
}

export default function PreferencesPage() {
  const navigate = useNavigate();
  const alerts = usePreferenceAlerts();
  const [saved] = useState(initialForm);
  const [form, setForm] = useState<Preferences>(saved);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The region follows the ZIP code until the shopper picks one themselves.
  const [regionChosen, setRegionChosen] = useState(() => form.region !== '');
  const zipRef = useRef<HTMLInputElement>(null);
  const suggested = zipToRegion(form.zipCode.trim());

  const update = (patch: Partial<Preferences>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as Array<keyof Preferences>) delete next[key];
      return next;
    });
  };

  const onZipChange = (zipCode: string) => {
    const region = zipToRegion(zipCode.trim());
    update(region && !regionChosen ? { zipCode, region } : { zipCode });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = preferencesSchema.safeParse(form);
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Preferences | undefined;
        if (key && !fieldErrors[key]) fieldErrors[key] = issue.message;
      }
      setErrors(fieldErrors);
      if (fieldErrors.zipCode) zipRef.current?.focus();
      return;
    }
    setSaving(true);
    let notes: string[];
    try {
      notes = await alerts.sync(parsed.data);
    } catch (error) {
      setSaving(false);
      toaster.create({
        type: 'error',
        title: 'Subscription failed',
        description: failureMessage(error, 'Please try again later.'),
      });
      return;
    }
    const alertForm = alerts.formFor(parsed.data, saved);
    try {
      savePreferences(parsed.data);
    } catch {
      setSaving(false);
      toaster.create({
        title: 'Unable to save preferences',
        description: 'Your browser did not allow saving them. Please try again.',
        type: 'error',
      });
      return;
    }
    const description = alertForm ? 'Enter your email address to get the alerts you turned on.' : notes.join(' ');
    toaster.create({
      title: 'Preferences saved',
      description: description || undefined,
      type: 'success',
      duration: SAVED_TOAST_MS,
    });
    navigate(alertForm ?? '/');
  };

  return (
    <Stack asChild gap={{ base: '5', md: '6' }}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="preferences-heading">
        <Box>
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} id="preferences-heading">
            Preferences
          </Heading>
          <Text color="fg.muted" mt="1">
            Saved in this browser only. The dashboard's price list starts filtered by your region, egg type and pack
            size, and Near you by your ZIP code.
          </Text>
        </Box>

        <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '4', lg: '6' }}>
          <Section title="Location" icon={<LuMapPin />}>
            <Field.Root invalid={!!errors.zipCode}>
              <Field.Label>ZIP code</Field.Label>
              <Input
                ref={zipRef}
                value={form.zipCode}
                onChange={(event) => onZipChange(event.currentTarget.value)}
                inputMode="numeric"
                autoComplete="postal-code"
                placeholder="e.g. 10001"
                maxLength={10}
              />
              {errors.zipCode ? (
                <Field.ErrorText>{errors.zipCode}</Field.ErrorText>
              ) : (
                <Field.HelperText>Optional. 5-digit ZIP or ZIP+4: Near you searches around it.</Field.HelperText>
              )}
            </Field.Root>
            <Field.Root>
              <Field.Label>Region</Field.Label>
              <Select
                value={form.region}
                onChange={(region) => {
                  setRegionChosen(region !== '');
                  update({ region });
                }}
              >
                <option value="">No preference</option>
                <RegionOptions />
              </Select>
              {suggested && suggested !== form.region ? (
                <Field.HelperText>
                  <HStack gap="2" wrap="wrap" as="span">
                    <span>Your ZIP code is in the {REGION_LABELS[suggested]} region.</span>
                    <Button
                      size="2xs"
                      variant="outline"
                      onClick={() => {
                        setRegionChosen(true);
                        update({ region: suggested });
                      }}
                    >
                      Use {REGION_LABELS[suggested]}
                    </Button>
                  </HStack>
                </Field.HelperText>
              ) : suggested ? (
                <Field.HelperText>Matches your ZIP code.</Field.HelperText>
              ) : (
                <Field.HelperText>Suggested from your ZIP code when it is a US ZIP.</Field.HelperText>
              )}
            </Field.Root>
          </Section>

          <Section title="Product" icon={<LuEgg />}>
            <Field.Root>
              <Field.Label>Egg type</Field.Label>
              <Select value={form.preferredEggType} onChange={(preferredEggType) => update({ preferredEggType })}>
                <option value="">No preference</option>
                <EggTypeSlugOptions />
              </Select>
            </Field.Root>
            <Field.Root invalid={!!errors.preferredCount}>
              <Field.Label>Egg count</Field.Label>
              <Select
                value={String(form.preferredCount)}
                onChange={(value) => update({ preferredCount: Number(value) })}
              >
                {CARD_COUNTS.map((count) => (
                  <option key={count} value={count}>
                    {count} eggs
                  </option>
                ))}
              </Select>
              {errors.preferredCount && <Field.ErrorText>{errors.preferredCount}</Field.ErrorText>}
            </Field.Root>
          </Section>

          <Section title="Store favourites" icon={<LuStore />}>
            <FavouriteStores
              selected={form.favoriteStores}
              onToggle={(storeId, checked) =>
                update({
                  favoriteStores: checked
                    ? [...form.favoriteStores.filter((id) => id !== storeId), storeId]
                    : form.favoriteStores.filter((id) => id !== storeId),
                })
              }
            />
          </Section>

          <Section title="Notifications" icon={<LuBell />}>
            <Toggle
              label={PREFERENCE_ALERTS.notifyPriceDrops.label}
              description="Tell me when prices drop at my favourite stores."
              checked={form.notifyPriceDrops}
              onChange={(notifyPriceDrops) => update({ notifyPriceDrops })}
            >
              <AlertNote alert="notifyPriceDrops" on={form.notifyPriceDrops} alerts={alerts} />
            </Toggle>
            <Toggle
              label={PREFERENCE_ALERTS.weeklyReport.label}
              description="A weekly summary of egg prices in my region."
              checked={form.weeklyReport}
              onChange={(weeklyReport) => update({ weeklyReport })}
            >
              <AlertNote alert="weeklyReport" on={form.weeklyReport} alerts={alerts} />
            </Toggle>
          </Section>
        </SimpleGrid>

        <HStack
          gap="3"
          justify={{ base: 'stretch', sm: 'flex-end' }}
          flexDirection={{ base: 'column-reverse', sm: 'row' }}
        >
          <Button asChild variant="outline" colorPalette="gray" width={{ base: 'full', sm: 'auto' }}>
            <RouterLink to="/">Cancel</RouterLink>
          </Button>
          <Button
            type="submit"
            variant="solid"
            width={{ base: 'full', sm: 'auto' }}
            loading={saving}
            loadingText="Saving..."
            disabled={alerts.loading}
          >
            Save Preferences
          </Button>
        </HStack>
      </form>
    </Stack>
  );
}
