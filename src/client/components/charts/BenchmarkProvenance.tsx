// The benchmark line's provenance wherever it is drawn: its month, the day BLS released it and
// when the next month is due ("BLS, October 2026, released 13 Nov; next due about 15 Dec").
import { Text } from '@chakra-ui/react';
import { benchmarkProvenance } from '#shared/official.ts';
import { trpc } from '#client/lib/trpc.ts';

const NATIONAL = 'APU0000708111';

export function BenchmarkProvenance({
  latest,
}: {
  /** The national series' newest month, when the page has it already; otherwise it is asked. */
  latest?: { period: string; publishedOn: string | null } | null;
}) {
  const [from] = [`${new Date().getUTCFullYear() - 2}-01`];
  const asked = trpc.market.series.useQuery({ from, region: 'national' }, { enabled: latest === undefined });
  const national = latest !== undefined ? latest : (asked.data?.find((s) => s.series_id === NATIONAL)?.latest ?? null);
  const text = benchmarkProvenance(national);
  if (!text) return null;
  return (
    <Text fontSize="sm" color="fg.muted" data-testid="benchmark-provenance">
      Benchmark: {text}.
    </Text>
  );
}
