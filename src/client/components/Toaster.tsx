// The app's one toaster: at most 5 toasts at once, 5 s by default, and a dismissed
// toast is removed after 1 s so its exit animation can finish.
//
// `toaster` (what pages call) is a small queue; the toast machinery (zag's toast machines and
// their DOM helpers, ToasterView.tsx) is not needed for the first paint, so it loads when the
// page is idle, or at once when a toast is raised first. Toasts raised before it has loaded wait
// in the queue and are shown, in order, as soon as it has.
import type { CreateToasterReturn } from '@chakra-ui/react';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { afterPageIdle } from '#client/lib/idle.ts';

export type ToastOptions = Parameters<CreateToasterReturn['create']>[0];

export const TOASTER_OPTIONS = {
  placement: 'bottom-end',
  max: 5,
  duration: 5000,
  removeDelay: 1000,
  pauseOnPageIdle: true,
} as const;

/** Where toasts go once the toast machinery has loaded: its store (ToasterView.tsx). */
export interface ToastSink {
  create(options: ToastOptions): string;
}

let sink: ToastSink | null = null;
const queue: Array<ToastOptions & { id: string }> = [];
let wanted = false;
const listeners = new Set<() => void>();
let nextId = 0;

function want(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** Text compared without case, outer spaces or closing punctuation: 'Saved!' repeats 'saved'. */
const bare = (text: string) =>
  text
    .trim()
    .replace(/[\s.!?:;,]+$/, '')
    .toLowerCase();

/**
 * A toast's (or notice's) text without its title repeated: none when it only says the title
 * again ('Subscription updated' under 'Subscription updated'), the rest when it starts with it
 * ('Subscription created! Alerts go to...' under 'Subscription created!').
 */
export function textBesideTitle(title: unknown, description: unknown): string | undefined {
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  if (typeof title !== 'string' || bare(title) === '') return description;
  if (bare(description) === bare(title)) return undefined;
  // The title as a sentence of its own at the start ('Saved! ...', 'Saved. ...'), not as the
  // start of a longer sentence ('Login failed because ...').
  const text = description.trim();
  const head = title.trim();
  const rest = text.slice(head.length);
  if (text.toLowerCase().startsWith(head.toLowerCase()) && (/[.!?:]$/.test(head) || /^[.!?:]/.test(rest))) {
    const after = rest.replace(/^[\s.!?:;,]+/, '');
    return after === '' ? undefined : after;
  }
  return description;
}

export const toaster = {
  /** Shows a toast (now, or once the toast machinery has loaded) and returns its id. */
  create(raw: ToastOptions): string {
    const description =
      typeof raw.description === 'string' ? textBesideTitle(raw.title, raw.description) : raw.description;
    const options: ToastOptions = { ...raw, description };
    const id = options.id ?? `toast-${++nextId}`;
    if (sink) return sink.create({ ...options, id });
    queue.push({ ...options, id });
    want();
    return id;
  },
};

/** Called by ToasterView once its toaster is mounted: shows the queued toasts, then takes new ones. */
export function connectToastSink(next: ToastSink): () => void {
  sink = next;
  for (const options of queue.splice(0)) next.create(options);
  return () => {
    if (sink === next) sink = null;
  };
}

/** The number of toasts waiting for the machinery (tests). */
export const queuedToasts = () => queue.length;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const isWanted = () => wanted;

const ToasterView = lazy(() => import('./ToasterView.tsx'));

export function Toaster() {
  const ready = useSyncExternalStore(subscribe, isWanted, isWanted);
  useEffect(() => (ready ? undefined : afterPageIdle(want)), [ready]);
  if (!ready) return null;
  // The toaster sits outside the pages' error boundaries: should its chunk fail to load (a newer
  // build replaced it), toasts stay queued rather than the failure taking the app down.
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
