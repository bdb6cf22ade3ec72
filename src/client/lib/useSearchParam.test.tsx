// @vitest-environment happy-dom
// URL state: several changes before React re-renders must all land in the URL (issue: a filter
// changed right after another was lost, because each write started from the last render's URL).
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrowserRouter } from 'react-router-dom';
import { useDashboardState, type DashboardStateApi } from '#client/pages/dashboard/useDashboardState.ts';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { useSearchParam, useUrlSearch, type UrlSearchUpdate } from './useSearchParam.ts';

let setParam: (key: string, value: string) => void = () => {};
let update: UrlSearchUpdate = () => {};
let dashboard: DashboardStateApi | undefined;
let rendered: string[] = [];

function Probe() {
  const [params, set] = useSearchParam();
  setParam = set;
  rendered.push(params.toString());
  return null;
}

function RawProbe() {
  const [, write] = useUrlSearch();
  update = write;
  return null;
}

function DashboardProbe() {
  dashboard = useDashboardState();
  return null;
}

function mount(node: React.ReactNode) {
  render(<BrowserRouter>{node}</BrowserRouter>);
}

beforeEach(() => {
  window.history.replaceState(null, '', '/store/walmart?region=south&type=cage-free&count=6');
  rendered = [];
  dashboard = undefined;
});
afterEach(cleanup);

describe('useSearchParam', () => {
  it('keeps both of two changes made in one tick', () => {
    mount(<Probe />);
    act(() => {
      setParam('type', '');
      setParam('region', '');
    });
    expect(window.location.pathname).toBe('/store/walmart');
    expect(window.location.search).toBe('?count=6');
    // What the page renders is the URL's state, not an intermediate one.
    expect(rendered.at(-1)).toBe('count=6');
  });

  it('keeps every change of a burst, in order, and a later change of the same key wins', () => {
    mount(<Probe />);
    act(() => {
      setParam('count', '12');
      setParam('region', 'west');
      setParam('type', 'organic');
      setParam('count', '18');
    });
    expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({
      region: 'west',
      type: 'organic',
      count: '18',
    });
  });

  it('replaces the history entry, so Back still leaves the page', async () => {
    window.history.replaceState(null, '', '/');
    window.history.pushState(null, '', '/store/walmart');
    mount(<Probe />);
    const length = window.history.length;
    act(() => {
      setParam('region', 'south');
      setParam('count', '12');
    });
    expect(window.history.length).toBe(length);
    expect(window.location.search).toBe('?region=south&count=12');
  });

  it('does not navigate when nothing changes', () => {
    mount(<RawProbe />);
    const length = window.history.length;
    act(() => update((params) => params, {}));
    expect(window.history.length).toBe(length);
  });
});

describe('useDashboardState', () => {
  it('applies a filter selection and a view change made in one tick', () => {
    window.history.replaceState(null, '', '/?page=3');
    mount(<DashboardProbe />);
    act(() => {
      dashboard!.apply({ ...DEFAULT_FILTERS, region: 'west', eggType: 'organic' });
      dashboard!.setView('list');
    });
    const params = Object.fromEntries(new URLSearchParams(window.location.search));
    // A changed selection goes back to page 1 (no page parameter), and the view is kept.
    expect(params).toEqual({ region: 'west', type: 'organic', view: 'list' });
    expect(dashboard!.state.filters.region).toBe('west');
    expect(dashboard!.state.view).toBe('list');
  });

  it('keeps parameters the dashboard does not own', () => {
    window.history.replaceState(null, '', '/?utm_source=mail');
    mount(<DashboardProbe />);
    act(() => {
      dashboard!.setPage(2);
      dashboard!.apply({ ...DEFAULT_FILTERS, store: 'aldi' });
    });
    expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({
      utm_source: 'mail',
      store: 'aldi',
    });
  });

  describe('with saved preferences', () => {
    beforeEach(() =>
      window.localStorage.setItem(
        'eggwatch.preferences',
        JSON.stringify({ zipCode: '60611', region: 'midwest', preferredEggType: 'organic', preferredCount: 36 }),
      ),
    );
    afterEach(() => window.localStorage.clear());

    it('applies their region and egg type as filters the URL does not name, and says so', () => {
      window.history.replaceState(null, '', '/');
      mount(<DashboardProbe />);
      // The saved 36-pack is not one of the Filters panel's sizes: not applied.
      expect(dashboard!.state.filters).toEqual({ ...DEFAULT_FILTERS, eggType: 'organic', region: 'midwest' });
      expect(dashboard!.fromPreferences).toEqual({ eggType: 'organic', region: 'midwest' });
      expect(window.location.search).toBe('');
    });

    it('lets the URL override them, and keeps All once chosen', () => {
      window.history.replaceState(null, '', '/?region=south');
      mount(<DashboardProbe />);
      expect(dashboard!.state.filters).toMatchObject({ eggType: 'organic', region: 'south' });
      expect(dashboard!.fromPreferences).toEqual({ eggType: 'organic' });
      act(() => dashboard!.apply({ ...dashboard!.state.filters, eggType: 'all', region: 'all' }));
      expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({ type: 'all', region: 'all' });
      expect(dashboard!.state.filters).toEqual(DEFAULT_FILTERS);
      expect(dashboard!.fromPreferences).toEqual({});
    });
  });
});
