// Whether an element has come near the viewport (once true, it stays true). Charts use it to put
// off drawing, and downloading nivo, until someone scrolls towards them: below the fold on a phone
// they would otherwise compete with the first paint for the main thread.
import { useEffect, useState, type RefObject } from 'react';

export function useNearViewport(ref: RefObject<Element | null>, rootMargin = '0px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return undefined;
    if (typeof IntersectionObserver !== 'function') {
      setNear(true);
      return undefined;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, near]);
  return near;
}
