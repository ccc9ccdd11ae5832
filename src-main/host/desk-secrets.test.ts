import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type SecretInput, SecretReader } from './desk-secrets';

/** A terminal as the reader meets it: a stream with isTTY and setRawMode, keys arriving as typed. */
function terminal(keys: string[]): { input: SecretInput; shown: string[]; raw: boolean[] } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (on: boolean) => raw.push(on) });
  const shown: string[] = [];
  const raw: boolean[] = [];
  // Each key arrives once the reader is listening, as a person types after seeing the prompt.
  let next = 0;
  const input: SecretInput = {
    env: {},
    stdin,
    prompt: (text) => {
      shown.push(text);
      if (text.endsWith(': ') && next < keys.length) setImmediate(() => stdin.write(keys[next++]));
    },
  };
  return { input, shown, raw };
}

describe('desk passwords', () => {
  // If this failed, a password typed at a terminal would appear on screen (and in scroll-back), or the terminal would stay in raw mode.
  it('reads a typed password without echo, honouring backspace, and restores the terminal', async () => {
    const t = terminal(['hunter22x\u007fy-and-more\r']);
    const reader = new SecretReader(t.input);
    expect(await reader.read('FORGE_DESK_PASSWORD', 'password for ada')).toBe('hunter22y-and-more');
    expect(t.shown.join('')).toBe('password for ada (not shown; or set FORGE_DESK_PASSWORD): \n');
    expect(t.raw).toEqual([true, false]);
  });

  // If this failed, a typo in a new password at a terminal would lock the first admin out of the desk.
  it('asks for a new password twice at a terminal and refuses two different entries', async () => {
    const same = new SecretReader(terminal(['first pass phrase\r', 'first pass phrase\r']).input);
    expect(await same.readNew('FORGE_DESK_PASSWORD', 'password for ada')).toBe('first pass phrase');
    const differ = new SecretReader(terminal(['first pass phrase\r', 'first pass phrasf\r']).input);
    await expect(differ.readNew('FORGE_DESK_PASSWORD', 'password for ada')).rejects.toMatchObject({ code: 'invalid_input' });
  });

  // If this failed, a script could not pipe two passwords (an admin's, then a new person's) in order.
  it('takes the environment first, else piped lines in order', async () => {
    const piped = new SecretReader({
      env: { FORGE_APP_PASSWORD: 'from the env 123' },
      stdin: Readable.from(['one line\ntwo line\n']),
      prompt: () => undefined,
    });
    expect(await piped.readNew('FORGE_APP_PASSWORD', 'x')).toBe('from the env 123');
    expect(await piped.read('FORGE_DESK_PASSWORD', 'x')).toBe('one line');
    expect(await piped.readNew('FORGE_NEW_USER_PASSWORD', 'x')).toBe('two line');
    expect(await piped.read('FORGE_NEW_USER_PASSWORD', 'x')).toBeUndefined();
    piped.done();
  });
});
