// Local preferences (SPEC §2 "Preferences", §5): location, product, favourite stores and
// notification flags, preloaded from and saved to browser storage. Saving validates with the
// shared schema, stores the values, shows 'Preferences saved' for 3 s and returns to /.
import { Box, Button, Card, Checkbox, Field, Fieldset, HStack, Heading, Input, NativeSelect, SimpleGrid, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LuBell, LuEgg, LuMapPin, LuStore } from 'react-icons/lu';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { preferencesSchema, type Preferences } from '#shared/preferences.ts';
import { CARD_COUNTS, EGG_TYPES, EGG_TYPE_LABELS, EGG_TYPE_SLUGS, REGIONS, REGION_LABELS, parseEggType, parseRegion } from '#shared/vocabulary.ts';
import { zipToRegion } from '#shared/zip.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { StoreLogo } from '#client/components/StoreLogo.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { loadPreferences, savePreferences } from '#client/lib/preferences.ts';
import { trpc } from '#client/lib/trpc.ts';

/** SPEC §9: saves show their toast for 3 s. */
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

function Select({ value, onChange, children }: { value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <NativeSelect.Root>
      <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {children}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function FavouriteStores({ selected, onToggle }: { selected: readonly string[]; onToggle: (storeId: string, checked: boolean) => void }) {
  const stores = trpc.stores.list.useQuery();
  if (stores.isError) return <ErrorCard title="Unable to load stores" message={stores.error.message} onRetry={() => void stores.refetch()} />;
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

function Toggle({ label, description, checked, onChange }: { label: string; description: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Switch.Root checked={checked} onCheckedChange={(details) => onChange(details.checked)} colorPalette="brand" alignItems="flex-start">
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
  );
}

export default function PreferencesPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<Preferences>(initialForm);
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

  const onSubmit = (event: FormEvent) => {
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
    try {
      savePreferences(parsed.data);
    } catch {
      toaster.create({ title: 'Unable to save preferences', description: 'Your browser did not allow saving them. Please try again.', type: 'error' });
      return;
    }
    toaster.create({ title: 'Preferences saved', type: 'success', duration: SAVED_TOAST_MS });
    navigate('/');
  };

  return (
    <Stack asChild gap={{ base: '5', md: '6' }}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="preferences-heading">
        <Box>
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} id="preferences-heading">
            Preferences
          </Heading>
          <Text color="fg.muted" mt="1">
            Saved in this browser only. The dashboard's price list starts filtered by your region, egg type and pack size, and Near you by your ZIP code.
          </Text>
        </Box>

        <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '4', lg: '6' }}>
          <Section title="Location" icon={<LuMapPin />}>
            <Field.Root invalid={!!errors.zipCode} required>
              <Field.Label>
                ZIP code
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                ref={zipRef}
                value={form.zipCode}
                onChange={(event) => onZipChange(event.currentTarget.value)}
                inputMode="numeric"
                autoComplete="postal-code"
                placeholder="e.g. 10001"
                maxLength={10}
              />
              {errors.zipCode ? <Field.ErrorText>{errors.zipCode}</Field.ErrorText> : <Field.HelperText>5-digit ZIP or ZIP+4</Field.HelperText>}
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
                {REGIONS.map((region) => (
                  <option key={region} value={region}>
                    {REGION_LABELS[region]}
                  </option>
                ))}
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
                {EGG_TYPES.map((type) => (
                  <option key={type} value={EGG_TYPE_SLUGS[type]}>
                    {EGG_TYPE_LABELS[type]}
                  </option>
                ))}
              </Select>
            </Field.Root>
            <Field.Root invalid={!!errors.preferredCount}>
              <Field.Label>Egg count</Field.Label>
              <Select value={String(form.preferredCount)} onChange={(value) => update({ preferredCount: Number(value) })}>
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
                  favoriteStores: checked ? [...form.favoriteStores.filter((id) => id !== storeId), storeId] : form.favoriteStores.filter((id) => id !== storeId),
                })
              }
            />
          </Section>

          <Section title="Notifications" icon={<LuBell />}>
            <Toggle
              label="Price drop alerts"
              description="Tell me when prices drop at my favourite stores."
              checked={form.notifyPriceDrops}
              onChange={(notifyPriceDrops) => update({ notifyPriceDrops })}
            />
            <Toggle
              label="Weekly reports"
              description="A weekly summary of egg prices in my region."
              checked={form.weeklyReport}
              onChange={(weeklyReport) => update({ weeklyReport })}
            />
          </Section>
        </SimpleGrid>

        <HStack gap="3" justify={{ base: 'stretch', sm: 'flex-end' }} flexDirection={{ base: 'column-reverse', sm: 'row' }}>
          <Button asChild variant="outline" colorPalette="gray" width={{ base: 'full', sm: 'auto' }}>
            <RouterLink to="/">Cancel</RouterLink>
          </Button>
          <Button type="submit" variant="solid" width={{ base: 'full', sm: 'auto' }}>
            Save Preferences
          </Button>
        </HStack>
      </form>
    </Stack>
  );
}
