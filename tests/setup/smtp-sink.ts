// An SMTP server in the test's process (smtp-server): it keeps every mail it is given, and answers 550 or
// 451 for the addresses told, as a relay refusing a mailbox for good or for now would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** `SMTP_URL` for the app under test. */
  url: string;
  received: ReceivedMail[];
  refuse: Map<string, 550 | 451>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const refuse = new Map<string, 550 | 451>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no STARTTLS offered, so the client never tries a certificate it cannot check.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = refuse.get(address.address);
      if (!code) return callback();
      const error = Object.assign(new Error(code === 550 ? 'No such mailbox here' : 'Try again later'), {
        responseCode: code,
      });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A message's headers, unfolded, by lower-case name. */
export function headersOf(raw: string): Map<string, string> {
  const head = raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** A message's body as text: quoted-printable soft breaks and escapes undone, read as UTF-8. */
export function bodyOf(raw: string): string {
  return Buffer.from(
    raw
      .slice(raw.indexOf('\r\n\r\n') + 4)
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}
