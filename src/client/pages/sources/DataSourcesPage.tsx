// Data Sources (the footer link): every source EggWatch's numbers come from, the official ones
// (BLS, USDA advertised retail prices and wholesale index, APHIS bird-flu detections) and the
// retailers' scrapers, with what each is, its terms, how often it is read, its status, last
// published, last fetched and next due; each retailer's coverage figures. Administrators also see
// each official source's last error and a "Fetch now" button (checked again on the server).
import { Badge, Box, Button, Card, Container, Heading, Link, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { OFFICIAL_SOURCE_INFO, shortDay, type OfficialSourceView } from '#shared/official.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { RelativeTime } from '#client/components/RelativeTime.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { useHasAdminSession } from '#client/lib/adminSession.ts';
import { trpc } from '#client/lib/trpc.ts';
import { nextFetchText, periodLabel, releaseText, statusText } from './sourcesView.ts';

const STATUS_PALETTE: Record<OfficialSourceView['status'], string> = {
  ok: 'green',
  failing: 'red',
  off: 'gray',
  'not-fetched': 'yellow',
};

function OfficialSourceCard({ source, admin }: { source: OfficialSourceView; admin: boolean }) {
  const adminStatus = trpc.official.adminStatus.useQuery(undefined, { enabled: admin });
  const utils = trpc.useUtils();
  const fetchNow = trpc.official.fetchNow.useMutation({
    onSuccess: () => {
      toaster.create({ type: 'success', title: `${source.name}: fetch queued` });
      void utils.official.invalidate();
    },
    onError: (error) => toaster.create({ type: 'error', title: `${source.name}: ${error.message}` }),
  });
  const lastError = adminStatus.data?.find((s) => s.source === source.source)?.lastError ?? null;
  const nextFetch = nextFetchText(source);
  return (
    <Card.Root as="article" variant="outline" aria-labelledby={`source-${source.source}`}>
      <Card.Header pb="2">
        <Stack direction="row" justify="space-between" align="flex-start" gap="3">
          <Box>
            <Heading as="h3" size="sm" id={`source-${source.source}`}>
              {source.name}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {source.publisher}
            </Text>
          </Box>
          <Badge colorPalette={STATUS_PALETTE[source.status]}>{statusText(source)}</Badge>
        </Stack>
      </Card.Header>
      <Card.Body pt="2">
        <Stack gap="2" fontSize="sm">
          <Text>{source.what}</Text>
          <Text color="fg.muted">Terms: {source.terms}</Text>
          {source.offReason && <Text>{source.offReason}</Text>}
          <Box as="dl" display="grid" gridTemplateColumns="max-content 1fr" columnGap="4" rowGap="1">
            <Text as="dt" color="fg.muted">
              Read
            </Text>
            <Text as="dd">{source.cadence}</Text>
            <Text as="dt" color="fg.muted">
              Last published
            </Text>
            <Text as="dd">
              {source.lastPeriod
                ? `${periodLabel(source.source, source.lastPeriod)}${source.lastPublishedOn ? `, published ${shortDay(source.lastPublishedOn)}` : ''}`
                : 'nothing yet'}
            </Text>
            <Text as="dt" color="fg.muted">
              Last fetched
            </Text>
            <Text as="dd">
              {source.lastFetchedAt ? <RelativeTime iso={source.lastFetchedAt} midSentence /> : 'never'}
            </Text>
            {source.failingSince && (
              <>
                <Text as="dt" color="fg.muted">
                  Failing since
                </Text>
                <Text as="dd">
                  <RelativeTime iso={source.failingSince} midSentence /> (the last good data stays shown, as of its
                  date)
                </Text>
              </>
            )}
            <Text as="dt" color="fg.muted">
              Next due
            </Text>
            <Text as="dd">
              {source.nextReleaseExpected ? releaseText(source.nextReleaseExpected) : ''}
              {source.nextReleaseExpected && nextFetch ? '; ' : ''}
              {nextFetch ? <time dateTime={nextFetch.at}>{nextFetch.text}</time> : 'not fetched while off'}
            </Text>
          </Box>
          <Link href={source.link} target="_blank" rel="noreferrer" textDecoration="underline">
            The source's own page for {OFFICIAL_SOURCE_INFO[source.source].name}
          </Link>
          {admin && (
            <Stack gap="2" borderTopWidth="1px" pt="2">
              <Text>
                <Text as="span" fontWeight="semibold">
                  Last error:
                </Text>{' '}
                {adminStatus.isLoading ? 'loading…' : (lastError ?? 'none')}
              </Text>
              <Box>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={source.status === 'off'}
                  loading={fetchNow.isPending}
                  onClick={() => fetchNow.mutate({ source: source.source })}
                >
                  Fetch now
                </Button>
              </Box>
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function RetailerTable() {
  const retailers = trpc.official.retailers.useQuery();
  if (retailers.isError)
    return (
      <ErrorCard
        title="Unable to load the retailers"
        message={retailers.error.message}
        onRetry={() => void retailers.refetch()}
      />
    );
  if (!retailers.data) return <Text color="fg.muted">Loading the retailers…</Text>;
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label="Retailers' coverage table">
      <Table.Root size="sm">
        <Table.Caption captionSide="top" textAlign="start" px="3" pt="2">
          Each retailer's stores known, visited in the last day and week, and its last scrape
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Retailer</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Stores known</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Visited, 24 h</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Visited, 7 days</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Never visited</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Failing / blocked</Table.ColumnHeader>
            <Table.ColumnHeader>Last scrape</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {retailers.data.map((r) => (
            <Table.Row key={r.store}>
              <Table.Cell>
                {r.name}
                {!r.active && ' (paused)'}
              </Table.Cell>
              <Table.Cell textAlign="end">{r.known}</Table.Cell>
              <Table.Cell textAlign="end">{r.visitedDay}</Table.Cell>
              <Table.Cell textAlign="end">{r.visitedWeek}</Table.Cell>
              <Table.Cell textAlign="end">{r.neverVisited}</Table.Cell>
              <Table.Cell textAlign="end">
                {r.failing} / {r.blocked}
              </Table.Cell>
              <Table.Cell>
                {r.lastRun?.finishedAt ? (
                  <>
                    {r.lastRun.status}, <RelativeTime iso={r.lastRun.finishedAt} midSentence />
                  </>
                ) : (
                  'none yet'
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

export default function DataSourcesPage() {
  const admin = useHasAdminSession();
  const sources = trpc.official.sources.useQuery();
  return (
    <Container maxW="7xl" py="8">
      <Stack gap="8">
        <Box>
          <Heading as="h1" size="2xl">
            Data Sources
          </Heading>
          <Text color="fg.muted" mt="2" maxW="3xl">
            Where every number on EggWatch comes from. Shelf prices are read by EggWatch from the retailers' own pages;
            the official figures are read from the U.S. government and shown beside them, labelled, never mixed into
            EggWatch's own statistics.
          </Text>
        </Box>
        <Stack as="section" gap="4" aria-labelledby="official-heading">
          <Heading as="h2" size="lg" id="official-heading">
            Official sources
          </Heading>
          {sources.isError ? (
            <ErrorCard
              title="Unable to load the sources"
              message={sources.error.message}
              onRetry={() => void sources.refetch()}
            />
          ) : !sources.data ? (
            <Text color="fg.muted">Loading the sources…</Text>
          ) : (
            <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
              {sources.data.map((source) => (
                <OfficialSourceCard key={source.source} source={source} admin={admin} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
        <Stack as="section" gap="4" aria-labelledby="retailers-heading">
          <Heading as="h2" size="lg" id="retailers-heading">
            Retailers' shelf prices
          </Heading>
          <Text fontSize="sm" color="fg.muted" maxW="3xl">
            EggWatch's scrapers read the egg listings of Walmart, Target, Kroger (through Kroger's public products API),
            Albertsons, Whole Foods and ALDI at the stores of each retailer's coverage plan, on a daily schedule. Prices
            are as listed on the retailer's site for a store on the day read; a fresh install shows a sample catalogue,
            marked as such, until scraped prices arrive.
          </Text>
          <RetailerTable />
        </Stack>
      </Stack>
    </Container>
  );
}
