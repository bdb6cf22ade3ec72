// Whether an element's content is wider than its box (a truncated text, a table wider than its
// scroll area), following resizes of the box and of its first child. Sizes are read in the
// ResizeObserver's callback, which runs after layout, so reading them forces none.
import { useCallback, useRef, useState, type RefCallback } from 'react';

export function useOverflowsX<T extends HTMLElement>(): readonly [RefCallback<T>, boolean] {
  const [overflows, setOverflows] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback<RefCallback<T>>((element) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // A pixel of rounding is not overflow.
    const check = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    observer.current = new ResizeObserver(check);
    observer.current.observe(element);
    if (element.firstElementChild) observer.current.observe(element.firstElementChild);
  }, []);
  return [ref, overflows] as const;
}
