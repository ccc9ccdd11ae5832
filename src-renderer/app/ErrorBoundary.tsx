import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * A screen that fails to render shows a readable message and a way out, instead of a blank
 * window; the sidebar and status bar keep working because they sit outside the boundary.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The developer console keeps the details; the PM sees the sentence below.
    console.error('Screen failed to render', error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="empty-state" role="alert">
        <h2>This screen ran into a problem</h2>
        <p>Your data is safe. Try another screen, or reload the window.</p>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
