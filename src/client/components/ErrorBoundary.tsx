// A render-error boundary for a section or a whole page. It shows the error's message (or a
// generic one) with Retry, which re-renders the children; changing resetKeys also resets it,
// so a page boundary clears when the user navigates elsewhere.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { DEFAULT_ERROR_TITLE, ErrorCard } from './ErrorCard.tsx';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Defaults to 'Something went wrong'; page-level boundaries use 'Application Error'. */
  title?: string;
  /** Called before the children are rendered again, e.g. to reset failed queries. */
  onReset?: () => void;
  resetKeys?: readonly unknown[];
  onError?: (error: unknown, info: ErrorInfo) => void;
}

interface State {
  error: unknown;
  failed: boolean;
}

function messageOf(error: unknown): string | null {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return null;
}

function changed(a: readonly unknown[] = [], b: readonly unknown[] = []): boolean {
  return a.length !== b.length || a.some((value, index) => !Object.is(value, b[index]));
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && changed(previous.resetKeys, this.props.resetKeys))
      this.setState({ error: null, failed: false });
  }

  private readonly retry = (): void => {
    this.props.onReset?.();
    this.setState({ error: null, failed: false });
  };

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <ErrorCard
        title={this.props.title ?? DEFAULT_ERROR_TITLE}
        message={messageOf(this.state.error)}
        onRetry={this.retry}
      />
    );
  }
}
