// Listing pagination: 'Showing X to Y of Z results', Previous and Next, at most 4
// numbered pages then an ellipsis and the last page; on mobile 'Page N of M' in place of numbers.
import { Button, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { LuChevronLeft, LuChevronRight, LuEllipsis } from 'react-icons/lu';
import { clampPage, pageButtons, showingText } from '#shared/pagination.ts';

export interface PaginationProps {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Below 768 px: 'Page N of M' instead of numbered buttons. */
  mobile?: boolean;
  /** Names the navigation landmark, e.g. 'Egg prices pages'. */
  label?: string;
}

export function Pagination({
  page,
  pageCount,
  pageSize,
  total,
  onPageChange,
  mobile = false,
  label = 'Pagination',
}: PaginationProps) {
  if (total <= 0 || pageCount <= 0) return null;
  const current = clampPage(page, pageCount);
  const go = (target: number) => {
    if (target !== current) onPageChange(clampPage(target, pageCount));
  };
  return (
    <Stack
      direction={{ base: 'column', md: 'row' }}
      align={{ base: 'stretch', md: 'center' }}
      justify="space-between"
      gap="3"
    >
      <Text textStyle="sm" color="fg.muted" aria-live="polite" textAlign={{ base: 'center', md: 'start' }}>
        {showingText(current, pageSize, total)}
      </Text>
      <HStack as="nav" aria-label={label} gap="1" justify={{ base: 'space-between', md: 'flex-end' }}>
        <Button size="sm" variant="outline" colorPalette="gray" onClick={() => go(current - 1)} disabled={current <= 1}>
          <LuChevronLeft aria-hidden />
          Previous
        </Button>
        {mobile ? (
          <Text textStyle="sm" fontWeight="medium" px="2" aria-current="page">
            {`Page ${current} of ${pageCount}`}
          </Text>
        ) : (
          pageButtons(current, pageCount).map((button, index) =>
            button === 'ellipsis' ? (
              <IconButton
                key={`ellipsis-${index}`}
                as="span"
                size="sm"
                variant="plain"
                colorPalette="gray"
                aria-hidden
                tabIndex={-1}
                pointerEvents="none"
              >
                <LuEllipsis />
              </IconButton>
            ) : (
              <Button
                key={button}
                size="sm"
                minW="9"
                variant={button === current ? 'solid' : 'ghost'}
                colorPalette={button === current ? 'brand' : 'gray'}
                aria-label={`Page ${button}`}
                aria-current={button === current ? 'page' : undefined}
                onClick={() => go(button)}
              >
                {button}
              </Button>
            ),
          )
        )}
        <Button
          size="sm"
          variant="outline"
          colorPalette="gray"
          onClick={() => go(current + 1)}
          disabled={current >= pageCount}
        >
          Next
          <LuChevronRight aria-hidden />
        </Button>
      </HStack>
    </Stack>
  );
}
