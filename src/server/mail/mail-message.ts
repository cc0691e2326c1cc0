// What a mail may carry. Header injection is refused here, whatever the caller checked: a CR or LF in a
// subject, a name or an address would start a header (or a body) of the sender's choosing.
import { HttpError } from '../lib/http-errors.js';

/** User text that cannot go into a mail: a clear 400 when it reaches a route, never a 500. */
export class MailInputError extends HttpError {
  constructor(message: string) {
    super(400, message);
    this.name = 'MailInputError';
  }
}

export const EMAIL_MAX_LENGTH = 254;
export const SUBJECT_MAX_LENGTH = 200;
export const DISPLAY_NAME_MAX_LENGTH = 100;

// A lone address: a dot-atom local part @ a host name (no quoted local part, no IP literal, no display name,
// no list: a comma, a space or a second @ never matches). A bare host (localhost) is let through for
// MAIL_FROM's default; the API's own schemas ask for a dotted domain where a person types an address.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})*$`);
/** The same check as a pattern PostgreSQL's `~` understands: bulk mail filters its rows with it. */
export const ADDRESS_PATTERN = ADDRESS.source;
// C0 controls and DEL (CR and LF among them): none belongs in a one-line header field.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// Set by the mail module itself, or ones that would add recipients or forge the sender.
const RESERVED_HEADERS = new Set(
  [
    'from',
    'sender',
    'reply-to',
    'to',
    'cc',
    'bcc',
    'subject',
    'date',
    'message-id',
    'mime-version',
    'content-type',
    'content-transfer-encoding',
    'list-unsubscribe',
    'list-unsubscribe-post',
    'return-path',
  ].map((name) => name.toLowerCase()),
);

/** One recipient: an address, or an address and a display name. */
export type Recipient = string | { name?: string | null; address: string };

/** The address, trimmed, when it is one valid address; throws MailInputError otherwise. */
export function checkAddress(value: string): string {
  const address = value.trim();
  if (CONTROL.test(address)) throw new MailInputError('An e-mail address must be on one line.');
  if (address.length > EMAIL_MAX_LENGTH || !ADDRESS.test(address))
    throw new MailInputError('Please enter one valid e-mail address.');
  return address;
}

/** A subject or a display name: one line of text. */
export function checkOneLine(value: string, what: string, max: number): string {
  if (CONTROL.test(value)) throw new MailInputError(`${what} must be on one line.`);
  const text = value.trim();
  if (text.length > max) throw new MailInputError(`${what} must be at most ${max} characters.`);
  return text;
}

export function checkRecipient(to: Recipient): { address: string; name: string | null } {
  if (typeof to === 'string') return { address: checkAddress(to), name: null };
  const name = to.name ? checkOneLine(to.name, 'A display name', DISPLAY_NAME_MAX_LENGTH) : '';
  return { address: checkAddress(to.address), name: name || null };
}

/** Extra headers: token names the module does not set itself, one-line values. */
export function checkHeaders(headers: Record<string, string>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) throw new MailInputError(`${name} is not a header name.`);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new MailInputError(`The ${name} header is set by the mail module.`);
    checked[name] = checkOneLine(value, `The ${name} header`, 998);
  }
  return checked;
}

/**
 * RFC 8058 one-click unsubscribe: the link in List-Unsubscribe, which a mail client POSTs to with the body
 * `List-Unsubscribe=One-Click`. An https (or, locally, http) URL; URL serialisation escapes `<`, `>` and spaces.
 */
export function unsubscribeHeaders(url: string): Record<string, string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MailInputError('The unsubscribe link is not a URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new MailInputError('The unsubscribe link must be an http(s) URL.');
  return {
    'List-Unsubscribe': `<${parsed.href}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** MAIL_FROM: `Name <address>` or a bare address, checked as a recipient is. */
export function parseSender(value: string): { name: string | null; address: string } {
  if (CONTROL.test(value)) throw new MailInputError('The sender must be on one line.');
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(value);
  if (!match) return { name: null, address: checkAddress(value) };
  const name = match[1]!.replace(/^"(.*)"$/, '$1');
  return checkRecipient({ name, address: match[2]! });
}
