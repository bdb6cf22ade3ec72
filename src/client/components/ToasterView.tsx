// The toaster's rendering (Toaster.tsx loads it lazily): Chakra's toaster with the app's toast
// layout, fed from Toaster.tsx's queue once it has mounted.
import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react';
import { TOASTER_OPTIONS, connectToastSink } from './Toaster.tsx';

const base = createToaster({ ...TOASTER_OPTIONS });

/**
 * The store, connected to the queue once the toaster has subscribed to it: a toast already in
 * the store when the toaster subscribes is never shown, so queued toasts must arrive after.
 */
const store: typeof base = {
  ...base,
  subscribe(subscriber) {
    const unsubscribe = base.subscribe(subscriber);
    let disconnect = () => {};
    const timer = setTimeout(() => {
      disconnect = connectToastSink(base);
    }, 0);
    return () => {
      clearTimeout(timer);
      disconnect();
      unsubscribe();
    };
  },
};

export default function ToasterView() {
  return (
    <Portal>
      <ChakraToaster toaster={store} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable !== false && <Toast.CloseTrigger aria-label="Dismiss notification" />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
