import { Badge, Card, HStack, Icon, Skeleton, SkeletonText, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowDown, LuArrowUp, LuMinus } from 'react-icons/lu';
import type { TrendDirection } from '#shared/vocabulary.ts';

export interface StatTrend {
  direction: TrendDirection;
  /** Already formatted, e.g. '2.4%'. */
  value: string;
  /** What the change is measured against, e.g. 'vs last week'. */
  caption?: string;
}

export interface StatCardProps {
  title: string;
  value: ReactNode;
  subtext?: ReactNode;
  /** The change, or a note where it would be (e.g. '2 days of prices so far'). */
  trend?: StatTrend | string | null;
  /** Short text shown as a badge, e.g. a store name. */
  badge?: string | null;
  /** Further content below the subtext, e.g. more badges. */
  extra?: ReactNode;
  /**
   * Shows skeleton bars instead of the content. With placeholder content shaped like the real one
   * (a value, subtext, trend, badge), the bars take its exact size, hidden from screen readers, so
   * the card keeps its height when the data arrives and nothing below it moves; without a value,
   * generic bars.
   */
  loading?: boolean;
}

const TREND_STYLE = {
  up: { icon: LuArrowUp, color: 'trend.up', word: 'Up' },
  down: { icon: LuArrowDown, color: 'trend.down', word: 'Down' },
  stable: { icon: LuMinus, color: 'trend.stable', word: 'Unchanged' },
} as const;

export function TrendIndicator({ trend }: { trend: StatTrend }) {
  const style = TREND_STYLE[trend.direction];
  return (
    <HStack gap="1" fontSize="sm" fontWeight="medium">
      <HStack gap="0.5" color={style.color}>
        <Icon size="sm" aria-hidden>
          <style.icon />
        </Icon>
        <VisuallyHidden>{style.word}</VisuallyHidden>
        <Text as="span">{trend.value}</Text>
      </HStack>
      {trend.caption && (
        <Text as="span" color="fg.muted" fontWeight="normal">
          {trend.caption}
        </Text>
      )}
    </HStack>
  );
}

/** The real content, or while loading a skeleton bar of the same size that nobody reads out. */
function Part({ loading, children }: { loading: boolean; children: ReactNode }) {
  if (!loading) return children;
  return (
    <Skeleton loading aria-hidden width="fit-content" maxW="full">
      {children}
    </Skeleton>
  );
}

/** A dashboard summary figure: title, value, subtext, optional trend and badge. */
export function StatCard({ title, value, subtext, trend, badge, extra, loading = false }: StatCardProps) {
  const generic = loading && (value === null || value === undefined);
  return (
    <Card.Root variant="outline" height="full" aria-busy={loading || undefined}>
      <Card.Body gap="2">
        <Text
          as="h3"
          fontSize="sm"
          fontWeight="semibold"
          color="fg.muted"
          textTransform="uppercase"
          letterSpacing="wide"
        >
          {title}
        </Text>
        {generic ? (
          <Stack gap="3" pt="1">
            <Skeleton height="9" width="36" />
            <SkeletonText noOfLines={2} gap="2" />
          </Stack>
        ) : (
          <Part loading={loading}>
            <Text fontSize="3xl" fontWeight="bold" lineHeight="short">
              {value}
            </Text>
          </Part>
        )}
        {subtext && (
          <Part loading={loading}>
            <Text fontSize="sm" color="fg.muted">
              {subtext}
            </Text>
          </Part>
        )}
        {trend && (
          <Part loading={loading}>
            {typeof trend === 'string' ? (
              <Text fontSize="sm" color="fg.muted">
                {trend}
              </Text>
            ) : (
              <TrendIndicator trend={trend} />
            )}
          </Part>
        )}
        {(badge || extra) && (
          <Part loading={loading}>
            <HStack gap="2" wrap="wrap" pt="1">
              {badge && (
                <Badge colorPalette="brand" variant="subtle" size="md">
                  {badge}
                </Badge>
              )}
              {extra}
            </HStack>
          </Part>
        )}
      </Card.Body>
    </Card.Root>
  );
}
