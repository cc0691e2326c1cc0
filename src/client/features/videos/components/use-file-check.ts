import { useEffect, useState } from 'react';
import { NETWORK_ERROR, VIDEO_UNAVAILABLE, type PlayerMessageText } from './player-message';

/**
 * spec 7: checks that the file exists (HEAD) before playing, when `verify` asks for it; true once it does
 * (at once when not asked). A missing file or a failed request is reported through `onFailure`.
 */
export function useFileCheck(
  src: string | null,
  verify: boolean,
  onFailure: (message: PlayerMessageText) => void,
): boolean {
  const [verified, setVerified] = useState(!verify);

  useEffect(() => {
    if (!src || !verify) return;
    const controller = new AbortController();
    fetch(src, { method: 'HEAD', credentials: 'include', signal: controller.signal })
      .then((response) => {
        if (response.ok) setVerified(true);
        else onFailure(VIDEO_UNAVAILABLE);
      })
      .catch(() => {
        if (!controller.signal.aborted) onFailure(NETWORK_ERROR);
      });
    return () => controller.abort();
  }, [src, verify, onFailure]);

  return verified;
}
