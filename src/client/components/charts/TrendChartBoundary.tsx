// Catches a failure while drawing the Price Trends chart and shows the chart failure in its
// place (titled 'Chart Error'), with Retry; the rest of the dashboard keeps working.
import { Component, type ReactNode } from 'react';
import { ErrorCard } from '#client/components/ErrorCard.tsx';

export const CHART_ERROR_TITLE = 'Chart Error';
export const CHART_ERROR_TEXT = 'Unable to display chart. Please try refreshing the page.';
export const CHART_ERROR_DEFAULT = 'Chart could not be rendered';

interface State {
  error: unknown;
}

export class TrendChartBoundary extends Component<{ children: ReactNode; resetKey?: unknown }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error(CHART_ERROR_DEFAULT) };
  }

  override componentDidUpdate(previous: { resetKey?: unknown }): void {
    if (this.state.error !== null && !Object.is(previous.resetKey, this.props.resetKey)) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    const detail =
      this.state.error instanceof Error && this.state.error.message ? this.state.error.message : CHART_ERROR_DEFAULT;
    return (
      <ErrorCard
        title={CHART_ERROR_TITLE}
        message={`${CHART_ERROR_TEXT} (${detail})`}
        onRetry={() => this.setState({ error: null })}
      />
    );
  }
}
