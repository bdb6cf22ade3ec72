// The dashboard's 'Data Scrapers' card, inside the Administrator Controls that only
// administrators see: ZIP codes (comma-separated, DEFAULT_SCRAPE_ZIPS by default), the Walmart
// scraper's Run button and its status box, polled from GET /api/scrape/status. A ZIP list the
// API would refuse is marked at the field as well as in the toast.
import { DEFAULT_SCRAPE_ZIPS } from '#shared/scrape.ts';
import { ScraperCard } from '#client/components/scrapers/ScraperCard.tsx';
import { useZipList, ZipCodesField } from '#client/components/scrapers/ZipCodesField.tsx';
import { useWalmartScraperStatus } from '#client/components/scrapers/useScrapers.ts';

export default function DashboardScraperCard() {
  const zips = useZipList(DEFAULT_SCRAPE_ZIPS.join(', '));
  const status = useWalmartScraperStatus();
  return (
    <ScraperCard
      store="walmart"
      title="Data Scrapers"
      dashboard
      activeStyle="yes-no"
      zipCodes={zips.zipCodes}
      onRun={zips.check}
      status={status.data}
      statusFailed={status.isError}
      onRetryStatus={() => void status.refetch()}
    >
      <ZipCodesField
        list={zips}
        label="ZIP codes"
        helper="Comma-separated; Walmart is scraped near each one."
        placeholder={DEFAULT_SCRAPE_ZIPS.slice(0, 3).join(', ')}
      />
    </ScraperCard>
  );
}
