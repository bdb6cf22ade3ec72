// The admin Settings tab: the daily scrape of every active store (on or off, the UTC hour, the ZIP
// list), saved in the database and read by the worker's hourly tick. One schedule for every store:
// no per-store schedule is offered (docs/decisions/014-one-answer-to-cheapest.md).
import { Button, Card, Field, Heading, NativeSelect, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LuSave } from 'react-icons/lu';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage, fieldErrorsOf } from '#client/components/auth/errors.ts';
import { useZipList, ZipCodesField } from '#client/components/scrapers/ZipCodesField.tsx';
import { formatWhen } from '#client/lib/dateTime.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00 UTC`;

export function SettingsTab() {
  const settings = trpc.scrape.settings.useQuery();
  const utils = trpc.useUtils();
  const [enabled, setEnabled] = useState(false);
  const [hour, setHour] = useState(6);
  const zips = useZipList('');
  const { setText: setZipText } = zips;
  const save = trpc.scrape.updateSettings.useMutation({
    onSuccess: (data) => {
      utils.scrape.settings.setData(undefined, data);
      void utils.scrape.allStatus.invalidate();
      void utils.scrape.status.invalidate();
      toaster.create({
        type: 'success',
        title: 'Settings saved',
        description: data.dailyEnabled
          ? `Daily scraping runs at ${hourLabel(data.hourUtc)}.`
          : 'Daily scraping is off.',
        duration: 3000,
      });
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Update failed',
        description: failureMessage(error, 'The settings could not be saved. Please try again.'),
      }),
  });

  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.dailyEnabled);
    setHour(settings.data.hourUtc);
    setZipText(settings.data.zipCodes.join(', '));
  }, [settings.data, setZipText]);

  if (settings.isError)
    return (
      <ErrorCard
        message={failureMessage(settings.error, 'Unable to load the settings. Please try again.')}
        onRetry={() => void settings.refetch()}
      />
    );

  // The server's refusal of the list, while the list is still the one it refused.
  const zipError =
    save.error && save.variables?.zipCodes.join() === zips.zipCodes.join()
      ? fieldErrorsOf(save.error).zipCodes?.join(' ')
      : undefined;
  return (
    <Card.Root
      variant="outline"
      as="form"
      onSubmit={(event: React.FormEvent) => {
        event.preventDefault();
        zips.check();
        save.mutate({ dailyEnabled: enabled, hourUtc: hour, zipCodes: zips.zipCodes });
      }}
    >
      <Card.Header>
        <Heading as="h2" size="md">
          Scraping schedule
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {settings.data
            ? `Next scheduled run: ${formatWhen(settings.data.nextScheduledRun, 'Not scheduled')}`
            : 'Loading the schedule...'}
        </Text>
      </Card.Header>
      <Card.Body>
        {settings.isPending ? (
          <Stack gap="3" role="status" aria-label="Loading settings">
            <Skeleton height="8" />
            <Skeleton height="8" />
            <Skeleton height="16" />
          </Stack>
        ) : (
          <Stack gap="5">
            <Switch.Root checked={enabled} onCheckedChange={(details) => setEnabled(details.checked)}>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>
                <Text as="span" fontWeight="medium">
                  Daily scraping
                </Text>
                <Text as="span" display="block" textStyle="xs" color="fg.muted">
                  Run every active store's scraper once a day over the ZIP codes below.
                </Text>
              </Switch.Label>
            </Switch.Root>
            <Field.Root disabled={!enabled} maxW="xs">
              <Field.Label>Hour</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={String(hour)} onChange={(event) => setHour(Number(event.target.value))}>
                  {HOURS.map((h) => (
                    <option key={h} value={h}>
                      {hourLabel(h)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <ZipCodesField
              list={zips}
              label="ZIP codes"
              helper="Comma-separated, up to 25."
              serverError={zipError}
              multiline
              maxW="2xl"
            />
          </Stack>
        )}
      </Card.Body>
      <Card.Footer>
        <Button
          type="submit"
          colorPalette="brand"
          loading={save.isPending}
          loadingText="Saving..."
          disabled={!settings.data}
        >
          <LuSave aria-hidden />
          Save Settings
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
