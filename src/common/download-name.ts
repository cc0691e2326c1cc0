/**
 * The name a downloaded original is saved under: the video's title made safe for any file system
 * (letters, digits, spaces as dashes), with the stored file's extension. Shared by the media route's
 * Content-Disposition and the client's download link.
 */
export function downloadFileName(title: string, extension: string): string {
  const base = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} _-]+/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, 100);
  return `${base || 'pickreel-video'}.${extension.toLowerCase() || 'mov'}`;
}

/** A Content-Disposition value for that name: an ASCII fallback plus the RFC 5987 UTF-8 form. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
