// @vitest-environment happy-dom
// The scrapers' ZIP field: a list the API would refuse is marked at the field (aria-invalid, the
// API's message naming the bad entries) once the field is left or a run is asked for, and the
// mark goes as soon as the list is fixed.
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { useZipList, ZipCodesField, type ZipList } from './ZipCodesField.tsx';

let list: ZipList;

function Probe({ initial }: { initial: string }) {
  list = useZipList(initial);
  return <ZipCodesField list={list} label="ZIP codes for every scraper" helper="Comma-separated, up to 25." />;
}

const mount = (initial: string) =>
  render(
    <ChakraProvider value={system}>
      <Probe initial={initial} />
    </ChakraProvider>,
  );

afterEach(cleanup);

describe('ZipCodesField', () => {
  it('marks bad ZIP codes at the field once it is left, and clears the mark when they are fixed', () => {
    mount('10001, 60611');
    const input = screen.getByLabelText('ZIP codes for every scraper');
    expect(input.getAttribute('aria-invalid')).toBeNull();

    fireEvent.change(input, { target: { value: '10001, 1234, abcde' } });
    // Not while typing...
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('Comma-separated, up to 25.')).toBeTruthy();
    // ...but once the field is left.
    fireEvent.blur(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Not 5-digit ZIP codes: "1234", "abcde"')).toBeTruthy();
    expect(screen.queryByText('Comma-separated, up to 25.')).toBeNull();
    expect(list.zipCodes).toEqual(['10001', '1234', 'abcde']);

    fireEvent.change(input, { target: { value: '10001, 12345' } });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('Comma-separated, up to 25.')).toBeTruthy();
  });

  it('marks the field when a run is asked for with a bad list', () => {
    mount('00601');
    act(() => list.check());
    expect(screen.getByLabelText('ZIP codes for every scraper').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Not ZIP codes of a US state: 00601')).toBeTruthy();
  });

  it('an empty list is marked too', () => {
    mount('');
    act(() => list.check());
    expect(screen.getByText('Enter at least one ZIP code')).toBeTruthy();
  });
});
