// A password input with a show/hide toggle, built from Chakra's InputGroup like the
// Chakra password-input snippet. The toggle is a real button in the tab order with a label that
// says what pressing it does.
import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { forwardRef, useState } from 'react';
import { LuEye, LuEyeOff } from 'react-icons/lu';

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  /** What the toggle shows or hides, for its label ('password' unless told). */
  secretName?: string;
}

export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { secretName = 'password', ...props },
  ref,
) {
  const [visible, setVisible] = useState(false);
  const label = `${visible ? 'Hide' : 'Show'} ${secretName}`;
  return (
    <InputGroup
      endElement={
        <IconButton
          type="button"
          aria-label={label}
          title={label}
          aria-pressed={visible}
          variant="ghost"
          colorPalette="gray"
          size="sm"
          me="-2"
          height="calc(100% - {spacing.2})"
          aspectRatio="square"
          disabled={props.disabled}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <LuEyeOff /> : <LuEye />}
        </IconButton>
      }
    >
      <Input ref={ref} {...props} type={visible ? 'text' : 'password'} />
    </InputGroup>
  );
});
