// The dialog that shows one row's details over an admin table (an email of the outbox, a scraper
// run): full screen on phones, its body scrolling inside and reachable by keyboard.
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function DetailsDialog({
  open,
  onClose,
  size,
  title,
  wrapTitle = false,
  closeLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** Its size from the md breakpoint up. */
  size: 'lg' | 'xl';
  title: ReactNode;
  /** Break the title anywhere (a long subject without spaces). */
  wrapTitle?: boolean;
  /** The close button's accessible name. */
  closeLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: size }}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title overflowWrap={wrapTitle ? 'anywhere' : undefined}>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body tabIndex={0}>{children}</Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
