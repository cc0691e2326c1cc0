import { describe, expect, it } from 'vitest';
import { attachmentDisposition, downloadFileName } from './download-name.js';

describe('downloadFileName', () => {
  it('turns a title into a safe file name with the stored extension', () => {
    expect(downloadFileName('Lakers vs Celtics: -3.5 lock!', 'MOV')).toBe('Lakers-vs-Celtics-35-lock.mov');
    expect(downloadFileName('../../etc/passwd', 'mov')).toBe('etcpasswd.mov');
    expect(downloadFileName('Fútbol  élite', 'mov')).toBe('Fútbol-élite.mov');
  });

  it('falls back to a name when nothing of the title is left', () => {
    expect(downloadFileName('!!!', 'mov')).toBe('pickreel-video.mov');
    expect(downloadFileName('x'.repeat(300), 'mov')).toHaveLength(104);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII name and the UTF-8 one', () => {
    expect(attachmentDisposition('Fútbol-élite.mov')).toBe(
      `attachment; filename="F_tbol-_lite.mov"; filename*=UTF-8''F%C3%BAtbol-%C3%A9lite.mov`,
    );
    expect(attachmentDisposition('plain.mov')).toBe(
      `attachment; filename="plain.mov"; filename*=UTF-8''plain.mov`,
    );
  });
});
