import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../components/ui/button';

type Props = { children: ReactNode };
type State = { failed: boolean };

/**
 * Keeps the navigation bar usable when a page throws, most often because a page's code chunk could not be
 * fetched (offline, or a deploy replaced it). The router remounts this per path, so navigating away recovers.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div
        role="alert"
        className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center"
      >
        <AlertTriangle aria-hidden className="size-10 text-destructive" />
        <h1 className="text-2xl font-bold tracking-tight">This page could not be loaded</h1>
        <p className="text-muted-foreground">Check your connection, then reload the page.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    );
  }
}
