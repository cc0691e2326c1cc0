import { useEffect, useRef } from 'react';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '#common/constants.js';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { useToast } from './use-toast';

// spec 9: auto-close after 5000 ms, swipe right past 50 px to dismiss, F8 jumps to the notifications.
const VIEWPORT_HOTKEY = ['F8'];

/** The notifications region: Radix's toasts, loaded by the Toaster (toaster.tsx) when first needed. */
export default function ToastRegion({ focusOnMount }: { focusOnMount: boolean }) {
  const { toasts, dismiss } = useToast();
  const viewport = useRef<HTMLOListElement>(null);
  // Loaded by an F8: do what that F8 would have done had the region been there.
  useEffect(() => {
    if (focusOnMount) viewport.current?.focus();
  }, [focusOnMount]);
  return (
    <ToastProvider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map(({ id, title, description, variant, action, open }) => (
        <Toast
          key={id}
          open={open}
          variant={variant}
          // Failures interrupt a screen reader; successes wait their turn.
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismiss(id);
          }}
        >
          <div className="grid min-w-0 flex-1 gap-0.5">
            <ToastTitle>{title}</ToastTitle>
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport ref={viewport} hotkey={VIEWPORT_HOTKEY} />
    </ToastProvider>
  );
}
