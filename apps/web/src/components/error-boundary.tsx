import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** Shown instead of the children once they failed to render. */
  fallback: ReactNode;
  onError?(error: unknown): void;
  children: ReactNode;
}

/** Catches a render failure of its children and shows `fallback`; give it a new `key` to try again. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { hasFailed: boolean }> {
  override state = { hasFailed: false };

  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onError?.(error);
  }

  override render(): ReactNode {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}
