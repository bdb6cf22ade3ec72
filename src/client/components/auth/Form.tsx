import { chakra } from '@chakra-ui/react';

/**
 * A form laid out as a vertical stack. The browser's own validation bubbles are off: the zod
 * messages show under each field instead.
 */
export const Form = chakra(
  'form',
  { base: { display: 'flex', flexDirection: 'column', gap: '4' } },
  { defaultProps: { noValidate: true } },
);
