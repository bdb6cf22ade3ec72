// The six filter sections of the Filters panel (egg type, store, region, egg count, display options, sort
// by), shared by the inline card and the mobile panel. Each control edits the local draft only.
import { Button, Field, HStack, NativeSelect, Switch, Text, VisuallyHidden } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { toggleCount, type FilterSelection } from '#shared/filters.ts';
import { FILTER_COUNTS } from '#shared/vocabulary.ts';
import { EGG_TYPE_OPTIONS, REGION_OPTIONS, SORT_FILTER_OPTIONS, type FilterOption } from './filterOptions.ts';

export type FilterSectionId = 'eggType' | 'store' | 'region' | 'count' | 'display' | 'sort';

export interface FilterSection {
  id: FilterSectionId;
  title: string;
}

export const FILTER_SECTIONS: readonly FilterSection[] = [
  { id: 'eggType', title: 'Egg Type' },
  { id: 'store', title: 'Store' },
  { id: 'region', title: 'Region' },
  { id: 'count', title: 'Egg Count' },
  { id: 'display', title: 'Display Options' },
  { id: 'sort', title: 'Sort By' },
];

export interface FilterControlProps {
  section: FilterSection;
  draft: FilterSelection;
  onChange: (patch: Partial<FilterSelection>) => void;
  storeOptions: readonly FilterOption[];
  /** Unique per rendering (inline card or mobile panel), so ids never collide. */
  idPrefix: string;
  /** The mobile panel shows the title as its section heading, so the label is for screen readers. */
  hideLabel?: boolean;
}

function SelectControl<V extends string>({
  id,
  label,
  hideLabel,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  hideLabel: boolean;
  value: V;
  options: ReadonlyArray<FilterOption<V>>;
  onChange: (value: V) => void;
}) {
  const labelNode: ReactNode = hideLabel ? <VisuallyHidden>{label}</VisuallyHidden> : label;
  return (
    <Field.Root id={id}>
      <Field.Label fontWeight="semibold">{labelNode}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value as V)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function CountControl({
  id,
  label,
  hideLabel,
  draft,
  onChange,
}: {
  id: string;
  label: string;
  hideLabel: boolean;
  draft: FilterSelection;
  onChange: FilterControlProps['onChange'];
}) {
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  return (
    <div>
      <Text id={labelId} fontWeight="semibold" textStyle="sm" mb="1.5">
        {hideLabel ? <VisuallyHidden>{label}</VisuallyHidden> : label}
      </Text>
      <HStack role="group" aria-labelledby={labelId} aria-describedby={hintId} gap="1.5" wrap="wrap">
        {FILTER_COUNTS.map((count) => {
          const selected = draft.countRange === count;
          return (
            <Button
              key={count}
              size="sm"
              minW="11"
              variant={selected ? 'solid' : 'outline'}
              colorPalette={selected ? 'brand' : 'gray'}
              aria-pressed={selected}
              aria-label={`${count} eggs`}
              onClick={() => onChange({ countRange: toggleCount(draft.countRange, count) })}
            >
              {count}
            </Button>
          );
        })}
      </HStack>
      <Text id={hintId} textStyle="xs" color="fg.muted" mt="1.5">
        {draft.countRange === null
          ? 'Any pack size. Pick one to narrow the list.'
          : `${draft.countRange}-egg packs only. Pick it again for any size.`}
      </Text>
    </div>
  );
}

function DisplayControl({
  label,
  hideLabel,
  draft,
  onChange,
}: {
  label: string;
  hideLabel: boolean;
  draft: FilterSelection;
  onChange: FilterControlProps['onChange'];
}) {
  return (
    <div>
      {!hideLabel && (
        // The switch's own label names it; this is the section's visible heading.
        <Text fontWeight="semibold" textStyle="sm" mb="2" aria-hidden>
          {label}
        </Text>
      )}
      <Switch.Root
        colorPalette="brand"
        checked={draft.showRegion}
        onCheckedChange={(details) => onChange({ showRegion: details.checked })}
      >
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>Show region</Switch.Label>
      </Switch.Root>
    </div>
  );
}

export function FilterControl({
  section,
  draft,
  onChange,
  storeOptions,
  idPrefix,
  hideLabel = false,
}: FilterControlProps) {
  const id = `${idPrefix}-${section.id}`;
  switch (section.id) {
    case 'eggType':
      return (
        <SelectControl
          id={id}
          label={section.title}
          hideLabel={hideLabel}
          value={draft.eggType}
          options={EGG_TYPE_OPTIONS}
          onChange={(eggType) => onChange({ eggType })}
        />
      );
    case 'store':
      return (
        <SelectControl
          id={id}
          label={section.title}
          hideLabel={hideLabel}
          value={draft.store}
          options={storeOptions}
          onChange={(store) => onChange({ store })}
        />
      );
    case 'region':
      return (
        <SelectControl
          id={id}
          label={section.title}
          hideLabel={hideLabel}
          value={draft.region}
          options={REGION_OPTIONS}
          onChange={(region) => onChange({ region })}
        />
      );
    case 'count':
      return <CountControl id={id} label={section.title} hideLabel={hideLabel} draft={draft} onChange={onChange} />;
    case 'display':
      return <DisplayControl label={section.title} hideLabel={hideLabel} draft={draft} onChange={onChange} />;
    case 'sort':
      return (
        <SelectControl
          id={id}
          label={section.title}
          hideLabel={hideLabel}
          value={draft.sortBy}
          options={SORT_FILTER_OPTIONS}
          onChange={(sortBy) => onChange({ sortBy })}
        />
      );
  }
}
