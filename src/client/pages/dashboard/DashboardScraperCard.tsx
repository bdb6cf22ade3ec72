// The dashboard's 'Data Scrapers' card (SPEC §2), inside the Administrator Controls that only
// administrators see: ZIP codes (comma-separated, SPEC §9's five by default), the Walmart
// scraper's Run button and its status box, polled from GET /api/scrape/status.
import { Field, Input } from '@chakra-ui/react';
import { useState } from 'react';
import { DEFAULT_SCRAPE_ZIPS } from '#shared/scrape.ts';
import { parseZipList } from '#shared/zip.ts';
import { ScraperCard } from '#client/components/scrapers/ScraperCard.tsx';
import { useWalmartScraperStatus } from '#client/components/scrapers/useScrapers.ts';

export default function DashboardScraperCard() {
  const [zips, setZips] = useState(DEFAULT_SCRAPE_ZIPS.join(', '));
  const status = useWalmartScraperStatus();
  return (
    <ScraperCard
      store="walmart"
      title="Data Scrapers"
      dashboard
      activeStyle="yes-no"
      zipCodes={parseZipList(zips)}
      status={status.data}
      statusFailed={status.isError}
      onRetryStatus={() => void status.refetch()}
    >
      <Field.Root>
        <Field.Label>ZIP codes</Field.Label>
        <Input value={zips} onChange={(event) => setZips(event.target.value)} placeholder={DEFAULT_SCRAPE_ZIPS.slice(0, 3).join(', ')} inputMode="numeric" autoComplete="off" />
        <Field.HelperText>Comma-separated; Walmart is scraped near each one.</Field.HelperText>
      </Field.Root>
    </ScraperCard>
  );
}
