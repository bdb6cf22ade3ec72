// The news ticker: price events computed from the data (news.ticker), in the shapes of
// the four ticker items (docs/features/statistics.md), each with its icon and trend colour; an event resting on sample data says so.
// The strip keeps its height while the events load, so nothing below it moves.
import { Box, HStack, Icon, Text, VisuallyHidden } from '@chakra-ui/react';
import { LuArrowDown, LuArrowUp, LuTag } from 'react-icons/lu';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';

type TickerEvent = RouterOutputs['news']['ticker'][number];
type TickerTrend = TickerEvent['trend'];

const TREND_COLOR: Record<TickerTrend, string> = { up: 'trend.up', down: 'trend.down', none: 'trend.none' };
const TREND_ICON = { up: LuArrowUp, down: LuArrowDown, none: LuTag } as const;

/** What the strip says when no price moved enough to be news. */
export const QUIET_ITEM: TickerEvent = {
  kind: 'national-week',
  text: 'Egg prices steady: no notable moves today',
  trend: 'none',
  sample: false,
};
const UNAVAILABLE_ITEM: TickerEvent = {
  kind: 'national-week',
  text: 'Egg price news is unavailable right now',
  trend: 'none',
  sample: false,
};

function TickerItems({ items, hidden = false }: { items: readonly TickerEvent[]; hidden?: boolean }) {
  return (
    <HStack as="ul" gap="10" pe="10" flexShrink={0} listStyleType="none" aria-hidden={hidden || undefined}>
      {items.map((item) => {
        const ItemIcon = TREND_ICON[item.trend];
        return (
          <HStack as="li" key={item.text} gap="2" color={TREND_COLOR[item.trend]} whiteSpace="nowrap">
            <Icon size="sm" aria-hidden>
              <ItemIcon />
            </Icon>
            <Text as="span" fontSize="sm" fontWeight="medium">
              {item.text}
            </Text>
            {item.sample && (
              <Text as="span" fontSize="xs" color="fg.muted">
                (sample data)
              </Text>
            )}
          </HStack>
        );
      })}
    </HStack>
  );
}

/**
 * A continuously scrolling strip: the items are rendered twice and the track slides by half its
 * width, so the loop is seamless. It pauses on hover or focus (the strip is a Tab stop), and stays
 * still (scrollable by hand or with the arrow keys) for people who ask for reduced motion.
 */
export function NewsTicker() {
  const ticker = trpc.news.ticker.useQuery(undefined, {
    staleTime: 5 * 60_000,
    trpc: { context: { unbatched: true } },
  });
  const items = ticker.isError
    ? [UNAVAILABLE_ITEM]
    : ticker.data && ticker.data.length > 0
      ? ticker.data
      : [QUIET_ITEM];
  return (
    <Box
      as="section"
      aria-label="Egg price news"
      colorPalette="brand"
      bg="brand.subtle"
      borderBottomWidth="1px"
      borderColor="border"
      overflow="hidden"
      _motionReduce={{ overflowX: 'auto' }}
      // A stop for the Tab key: focus pauses the moving strip (content that moves on its own must
      // be pausable from the keyboard too), and with reduced motion the still strip scrolls with
      // the arrow keys.
      tabIndex={0}
      className="group"
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' }}
    >
      <VisuallyHidden as="h2">Egg price news</VisuallyHidden>
      <Box
        display="flex"
        width="max-content"
        py="2"
        ps="4"
        animation="ticker 40s linear infinite"
        _hover={{ animationPlayState: 'paused' }}
        _groupFocus={{ animationPlayState: 'paused' }}
        _motionReduce={{ animationPlayState: 'paused', transform: 'none' }}
      >
        {ticker.isPending ? (
          // Holds the strip's height while the news loads.
          <Text as="span" fontSize="sm" visibility="hidden" aria-hidden>
            &nbsp;
          </Text>
        ) : (
          <>
            <TickerItems items={items} />
            <TickerItems items={items} hidden />
          </>
        )}
      </Box>
    </Box>
  );
}
