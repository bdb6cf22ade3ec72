import { Box, HStack, Icon, Text, VisuallyHidden } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuArrowDown, LuArrowUp, LuTag } from 'react-icons/lu';

type TickerTrend = 'up' | 'down' | 'none';

export interface TickerItem {
  icon: IconType;
  text: string;
  trend: TickerTrend;
}

/** The four fixed items of SPEC §2. */
export const TICKER_ITEMS: readonly TickerItem[] = [
  { icon: LuArrowDown, text: 'Midwest cage-free prices down 12% this week', trend: 'down' },
  { icon: LuArrowUp, text: 'Walmart egg prices up 3 days in a row', trend: 'up' },
  { icon: LuTag, text: 'Organic eggs on sale at Whole Foods in the Northeast', trend: 'none' },
  { icon: LuArrowDown, text: 'Pasture-raised eggs seeing a nationwide price drop', trend: 'down' },
];

const TREND_COLOR: Record<TickerTrend, string> = { up: 'trend.up', down: 'trend.down', none: 'trend.none' };

function TickerItems({ hidden = false }: { hidden?: boolean }) {
  return (
    <HStack as="ul" gap="10" pe="10" flexShrink={0} listStyleType="none" aria-hidden={hidden || undefined}>
      {TICKER_ITEMS.map((item) => (
        <HStack as="li" key={item.text} gap="2" color={TREND_COLOR[item.trend]} whiteSpace="nowrap">
          <Icon size="sm" aria-hidden>
            <item.icon />
          </Icon>
          <Text as="span" fontSize="sm" fontWeight="medium">
            {item.text}
          </Text>
        </HStack>
      ))}
    </HStack>
  );
}

/**
 * A continuously scrolling strip: the items are rendered twice and the track slides by half its
 * width, so the loop is seamless. It pauses on hover or focus, and stays still (scrollable by
 * hand) for people who ask for reduced motion.
 */
export function NewsTicker() {
  return (
    <Box as="section" aria-label="Egg price news" bg="brand.subtle" borderBottomWidth="1px" borderColor="border" overflow="hidden" _motionReduce={{ overflowX: 'auto' }}>
      <VisuallyHidden as="h2">Egg price news</VisuallyHidden>
      <Box
        display="flex"
        width="max-content"
        py="2"
        ps="4"
        animation="ticker 40s linear infinite"
        _hover={{ animationPlayState: 'paused' }}
        _focusWithin={{ animationPlayState: 'paused' }}
        _motionReduce={{ animationPlayState: 'paused', transform: 'none' }}
      >
        <TickerItems />
        <TickerItems hidden />
      </Box>
    </Box>
  );
}
