// Settings are placeholders (SPEC §2): shown, disabled.
import { Badge, Button, Card, Flex, Heading, Stack, Switch, Text } from '@chakra-ui/react';
import { LuSave, LuSettings } from 'react-icons/lu';

export function SettingsTab() {
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="md">
          Scraping schedule
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          These settings cannot be changed yet.
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          <Flex gap="3" justify="space-between" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
            <Switch.Root disabled>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>
                <Text as="span" fontWeight="medium">
                  Daily scraping
                </Text>
                <Text as="span" display="block" textStyle="xs" color="fg.muted">
                  Run every store's scraper once a day.
                </Text>
              </Switch.Label>
            </Switch.Root>
            <Button size="sm" variant="outline" disabled>
              <LuSettings aria-hidden />
              Configure
            </Button>
          </Flex>
          <Flex gap="3" justify="space-between" align="center" wrap="wrap">
            <Stack gap="0">
              <Text fontWeight="medium">Custom schedule</Text>
              <Text textStyle="xs" color="fg.muted">
                Choose the days and times each scraper runs.
              </Text>
            </Stack>
            <Badge colorPalette="gray" variant="outline">
              coming soon
            </Badge>
          </Flex>
        </Stack>
      </Card.Body>
      <Card.Footer>
        <Button disabled>
          <LuSave aria-hidden />
          Save Settings
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
