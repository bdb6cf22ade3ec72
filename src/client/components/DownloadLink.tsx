// A plain download link to one of the API's CSV files (docs/features/near-you.md, Downloads): the browser saves
// the file the server names (Content-Disposition), with the same filters as the screen beside it.
import { Link, VisuallyHidden } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';

export interface DownloadLinkProps {
  href: string;
  /** What the file holds, read after the link's text by screen readers, e.g. 'of the prices near 10001'. */
  context?: string;
  label?: string;
}

export function DownloadLink({ href, context, label = 'Download CSV' }: DownloadLinkProps) {
  return (
    <Link
      href={href}
      download
      fontSize="sm"
      fontWeight="medium"
      color="brand.fg"
      whiteSpace="nowrap"
      _hover={{ textDecoration: 'underline' }}
    >
      <LuDownload aria-hidden />
      {label}
      {context && <VisuallyHidden> {context}</VisuallyHidden>}
    </Link>
  );
}
