import { describe, expect, it } from 'vitest';
import { checkAddress, checkHeaders, checkRecipient, MailInputError, parseSender } from './mail-message.js';
import { isPermanentSmtpError } from './send-mail-job.js';

describe('mail input', () => {
  it('takes one plain address, and refuses lists, names, spaces and line breaks', () => {
    expect(checkAddress(' ann.b+picks@mail.example.com ')).toBe('ann.b+picks@mail.example.com');
    expect(checkAddress('no-reply@localhost')).toBe('no-reply@localhost');
    for (const bad of [
      'a@example.com, b@example.com',
      'a@example.com;b@example.com',
      'Ann <a@example.com>',
      'a b@example.com',
      'a@example.com\r\nBcc: b@example.com',
      'a@@example.com',
      '.a@example.com',
      'a@-example.com',
      '',
    ])
      expect(() => checkAddress(bad), bad).toThrow(MailInputError);
  });

  it('refuses a display name or header value on more than one line, and headers it sets itself', () => {
    expect(checkRecipient({ name: 'Ann Bettor', address: 'a@example.com' })).toEqual({
      name: 'Ann Bettor',
      address: 'a@example.com',
    });
    expect(() => checkRecipient({ name: 'Ann\nBcc: x@example.com', address: 'a@example.com' })).toThrow(
      MailInputError,
    );
    expect(checkHeaders({ 'X-Pick-Id': '42' })).toEqual({ 'X-Pick-Id': '42' });
    expect(() => checkHeaders({ 'X-Pick-Id': '42\r\nBcc: x@example.com' })).toThrow(MailInputError);
    for (const name of ['Bcc', 'to', 'From', 'List-Unsubscribe', 'X Bad'])
      expect(() => checkHeaders({ [name]: 'x' }), name).toThrow(MailInputError);
  });

  it('reads MAIL_FROM as an address or Name <address>', () => {
    expect(parseSender('PickReel <no-reply@localhost>')).toEqual({
      name: 'PickReel',
      address: 'no-reply@localhost',
    });
    expect(parseSender('"Pick Reel" <a@example.com>')).toEqual({
      name: 'Pick Reel',
      address: 'a@example.com',
    });
    expect(parseSender('a@example.com')).toEqual({ name: null, address: 'a@example.com' });
    expect(() => parseSender('PickReel <a@example.com>, b@example.com')).toThrow(MailInputError);
  });

  it('counts only a 5xx SMTP reply as permanent', () => {
    expect(isPermanentSmtpError(Object.assign(new Error('x'), { responseCode: 550 }))).toBe(true);
    expect(isPermanentSmtpError(Object.assign(new Error('x'), { responseCode: 451 }))).toBe(false);
    expect(isPermanentSmtpError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isPermanentSmtpError(null)).toBe(false);
  });
});
