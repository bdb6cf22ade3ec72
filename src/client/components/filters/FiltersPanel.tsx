// The dashboard's Filters panel. Changes are held in a local draft and take effect
// only on Apply Filters. From 768 px it is an inline card with the sections in a two-column grid;
// below that, a Filter/Close toggle opens a full-screen panel that slides in over 300 ms, with
// collapsible sections, a close button, and Apply closing it again.
import {
  Accordion,
  Badge,
  Box,
  Button,
  Card,
  CloseButton,
  Drawer,
  HStack,
  Heading,
  Portal,
  SimpleGrid,
  Spinner,
  Text,
} from '@chakra-ui/react';
import { useId, useRef, useState } from 'react';
import { LuFilter, LuRotateCcw, LuX } from 'react-icons/lu';
import { DEFAULT_FILTERS, type FilterSelection } from '#shared/filters.ts';
import { FILTER_SECTIONS, FilterControl } from './FilterControls.tsx';
import { activeFilterCount, isSameSelection } from './draft.ts';
import type { FilterOption } from './filterOptions.ts';

export interface FiltersPanelProps {
  /** The applied selection (from the URL). */
  applied: FilterSelection;
  onApply: (filters: FilterSelection) => void;
  storeOptions: readonly FilterOption[];
  /** Below 768 px: the slide-in panel instead of the inline card. */
  mobile: boolean;
  /** Applied filters are being put into effect (the list's new page is on its way). */
  applying?: boolean;
}

/** The local draft: starts from the applied selection and follows it when that changes. */
function useDraft(applied: FilterSelection) {
  const [base, setBase] = useState(applied);
  const [draft, setDraft] = useState(applied);
  if (!isSameSelection(base, applied)) {
    setBase(applied);
    setDraft(applied);
  }
  return {
    draft,
    update: (patch: Partial<FilterSelection>) => setDraft((current) => ({ ...current, ...patch })),
    reset: () => setDraft(applied),
    clear: () => setDraft({ ...DEFAULT_FILTERS }),
  };
}

const APPLY_LABEL = 'Apply Filters';
const PANEL_ANIMATION = '300ms';

function InlineFilters({ applied, onApply, storeOptions, applying = false }: Omit<FiltersPanelProps, 'mobile'>) {
  const { draft, update, clear } = useDraft(applied);
  const idPrefix = useId();
  const pending = !isSameSelection(draft, applied);
  const headingId = `${idPrefix}-heading`;
  return (
    <Card.Root as="section" aria-labelledby={headingId} variant="outline">
      <Card.Header pb="0">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as="h2" id={headingId} size="md">
            <HStack gap="2">
              <LuFilter aria-hidden />
              Filters
            </HStack>
          </Heading>
          {pending && (
            <Text textStyle="sm" color="fg.muted" role="status">
              Changes not applied yet
            </Text>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onApply(draft);
          }}
        >
          <SimpleGrid columns={{ base: 1, sm: 2 }} gapX="6" gapY="5">
            {FILTER_SECTIONS.map((section) => (
              <FilterControl
                key={section.id}
                section={section}
                draft={draft}
                onChange={update}
                storeOptions={storeOptions}
                idPrefix={idPrefix}
              />
            ))}
          </SimpleGrid>
          <HStack mt="6" gap="3" justify="flex-end" wrap="wrap">
            <Button
              type="button"
              variant="ghost"
              colorPalette="gray"
              size="sm"
              onClick={clear}
              disabled={isSameSelection(draft, DEFAULT_FILTERS)}
            >
              <LuRotateCcw aria-hidden />
              Reset
            </Button>
            <Button
              type="submit"
              colorPalette="amber"
              variant="solid"
              size="sm"
              loading={applying}
              loadingText="Applying..."
            >
              {APPLY_LABEL}
            </Button>
          </HStack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

function MobileFilters({ applied, onApply, storeOptions, applying = false }: Omit<FiltersPanelProps, 'mobile'>) {
  const [open, setOpen] = useState(false);
  const { draft, update, reset, clear } = useDraft(applied);
  const idPrefix = useId();
  const panelId = `${idPrefix}-panel`;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const active = activeFilterCount(applied);

  const setPanelOpen = (next: boolean) => {
    // Opening starts from what is applied; closing without Apply drops the draft.
    if (next) reset();
    setOpen(next);
  };

  return (
    <Box>
      <HStack gap="3">
        <Button
          ref={toggleRef}
          variant="outline"
          colorPalette="gray"
          size="sm"
          aria-expanded={open}
          aria-controls={panelId}
          aria-haspopup="dialog"
          onClick={() => setPanelOpen(!open)}
        >
          {open ? <LuX aria-hidden /> : applying ? <Spinner size="xs" aria-hidden /> : <LuFilter aria-hidden />}
          {open ? 'Close' : 'Filter'}
        </Button>
        {active > 0 && (
          <Badge colorPalette="amber" variant="subtle" aria-label={`${active} filters applied`}>
            {active} applied
          </Badge>
        )}
      </HStack>
      <Drawer.Root
        open={open}
        onOpenChange={(details) => setPanelOpen(details.open)}
        placement="end"
        size="full"
        // The toggle's aria-controls names the panel; the dialog finds its parts by these ids.
        ids={{ content: panelId }}
        initialFocusEl={() => closeRef.current}
        finalFocusEl={() => toggleRef.current}
      >
        <Portal>
          <Drawer.Backdrop
            _open={{ animationDuration: PANEL_ANIMATION }}
            _closed={{ animationDuration: PANEL_ANIMATION }}
          />
          <Drawer.Positioner>
            <Drawer.Content
              _open={{ animationDuration: PANEL_ANIMATION }}
              _closed={{ animationDuration: PANEL_ANIMATION }}
            >
              <Drawer.Header borderBottomWidth="1px" borderColor="border" py="4">
                <Drawer.Title flex="1">Filters</Drawer.Title>
                <Drawer.CloseTrigger asChild position="static">
                  <CloseButton ref={closeRef} size="sm" aria-label="Close filters" />
                </Drawer.CloseTrigger>
              </Drawer.Header>
              <Drawer.Body px="4" py="2">
                <form
                  id={`${panelId}-form`}
                  onSubmit={(event) => {
                    event.preventDefault();
                    onApply(draft);
                    setOpen(false);
                  }}
                >
                  <Accordion.Root multiple collapsible defaultValue={['eggType']} variant="plain">
                    {FILTER_SECTIONS.map((section) => (
                      <Accordion.Item key={section.id} value={section.id} borderBottomWidth="1px" borderColor="border">
                        <Accordion.ItemTrigger py="3.5" fontWeight="semibold" cursor="pointer">
                          <Text flex="1" textAlign="start">
                            {section.title}
                          </Text>
                          <Accordion.ItemIndicator />
                        </Accordion.ItemTrigger>
                        <Accordion.ItemContent>
                          <Accordion.ItemBody pt="1" pb="4">
                            <FilterControl
                              section={section}
                              draft={draft}
                              onChange={update}
                              storeOptions={storeOptions}
                              idPrefix={idPrefix}
                              hideLabel
                            />
                          </Accordion.ItemBody>
                        </Accordion.ItemContent>
                      </Accordion.Item>
                    ))}
                  </Accordion.Root>
                </form>
              </Drawer.Body>
              <Drawer.Footer borderTopWidth="1px" borderColor="border" py="4" px="4" gap="3">
                <Button
                  type="button"
                  variant="outline"
                  colorPalette="gray"
                  onClick={clear}
                  disabled={isSameSelection(draft, DEFAULT_FILTERS)}
                >
                  <LuRotateCcw aria-hidden />
                  Reset
                </Button>
                <Button type="submit" form={`${panelId}-form`} colorPalette="amber" variant="solid" flex="1">
                  {APPLY_LABEL}
                </Button>
              </Drawer.Footer>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Box>
  );
}

export function FiltersPanel({ mobile, ...props }: FiltersPanelProps) {
  return mobile ? <MobileFilters {...props} /> : <InlineFilters {...props} />;
}
