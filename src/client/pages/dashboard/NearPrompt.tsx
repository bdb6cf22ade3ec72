// What Near you shows before a ZIP code is applied. The dashboard's placeholder for the section
// shows the same, so nothing moves when the section's code arrives.
import { HStack, Text } from '@chakra-ui/react';
import { LuMapPin } from 'react-icons/lu';

export const NEAR_PROMPT =
  'Enter a ZIP code to see the cheapest eggs at the stores around it, ranked by price per dozen.';

export function NearPrompt() {
  return (
    <HStack
      gap="3"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border"
      borderRadius="l2"
      px="4"
      py="5"
      color="fg.muted"
    >
      <LuMapPin aria-hidden />
      <Text>{NEAR_PROMPT}</Text>
    </HStack>
  );
}
