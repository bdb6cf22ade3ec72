// The link from an observed price (a product at a store location) to that product's price
// history there. Estimates have no product behind them, so they get none.
import { Link, VisuallyHidden } from '@chakra-ui/react';
import { LuChartLine } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { historyHref } from '#client/lib/links.ts';

export interface HistoryLinkProps {
  productId: number;
  locationId: number;
  /** Read after 'Price history' by screen readers, so each link of a list names its product. */
  context: string;
  label?: string;
}

export function HistoryLink({ productId, locationId, context, label = 'Price history' }: HistoryLinkProps) {
  return (
    <Link
      asChild
      fontSize="sm"
      fontWeight="medium"
      color="brand.fg"
      whiteSpace="nowrap"
      _hover={{ textDecoration: 'underline' }}
    >
      <RouterLink to={historyHref(productId, locationId)}>
        <LuChartLine aria-hidden />
        {label}
        <VisuallyHidden> of {context}</VisuallyHidden>
      </RouterLink>
    </Link>
  );
}
