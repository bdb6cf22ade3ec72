// The collapsible 'Administrator Controls' section itself, loaded by AdminControlsSlot
// only when an administrator has controls to see, so shoppers never download it.
import { Box, Collapsible, HStack, Heading, Icon } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';
import { LuChevronDown, LuShieldCheck } from 'react-icons/lu';

export default function AdminControlsSection({ children }: { children: ReactNode }) {
  const headingId = useId();
  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" borderColor="border" borderRadius="l3" p="4">
      <Collapsible.Root defaultOpen>
        <Collapsible.Trigger asChild>
          <HStack
            as="button"
            width="full"
            justify="space-between"
            cursor="pointer"
            borderRadius="md"
            _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
          >
            <Heading as="h2" size="md" id={headingId}>
              <HStack gap="2">
                <LuShieldCheck aria-hidden />
                Administrator Controls
              </HStack>
            </Heading>
            <Icon
              aria-hidden
              transition="transform 0.2s"
              css={{ '[data-state=open] > &': { transform: 'rotate(180deg)' } }}
            >
              <LuChevronDown />
            </Icon>
          </HStack>
        </Collapsible.Trigger>
        <Collapsible.Content>
          <Box pt="4">{children}</Box>
        </Collapsible.Content>
      </Collapsible.Root>
    </Box>
  );
}
