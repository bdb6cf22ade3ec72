import { useSearchParams } from 'react-router-dom';

/**
 * The page's query string plus a setter for one key at a time (an empty value removes the key).
 * Filters kept in the URL survive a reload and can be shared; replacing the history entry keeps
 * Back meaning "the previous page", not "the previous filter".
 */
export function useSearchParam() {
  const [params, setParams] = useSearchParams();
  const setParam = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  return [params, setParam] as const;
}
