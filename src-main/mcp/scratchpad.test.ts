import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixture, jsonOf, textOf, type Fixture } from './__tests__/fixtures';
import { Scratchpad } from './scratchpad';

let f: Fixture;
beforeAll(() => {
  f = fixture();
});
afterAll(() => f.dispose());

/** A real child process running the scratchpad, ready when it prints "ready". */
function writer(workDir: string, prefix: string, count: number): { child: ChildProcess; ready: Promise<void>; done: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '__tests__', 'scratchpad-writer.ts'), workDir, prefix, String(count)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer ${prefix} exited (${code}) before it was ready: ${err}`)));
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 && out.includes('done') ? resolve() : reject(new Error(`writer ${prefix} failed (${code}): ${err}`))));
  });
  return { child, ready, done };
}

describe('scratchpad', () => {
  it('keeps every key when two processes write one scratchpad at the same time (a lost note is a decision the builder forgets)', async () => {
    const workDir = join(f.root, 'shared-work');
    mkdirSync(workDir, { recursive: true });
    const a = writer(workDir, 'alpha', 50);
    const b = writer(workDir, 'beta', 50);
    await Promise.all([a.ready, b.ready]);
    a.child.stdin!.write('go\n');
    b.child.stdin!.write('go\n');
    await Promise.all([a.done, b.done]);
    const stored = JSON.parse(readFileSync(join(workDir, 'Forge', '.scratchpad.json'), 'utf8')) as Record<string, string>;
    const expected = [...Array(50).keys()].flatMap((i) => [`alpha_${i}`, `beta_${i}`]).sort();
    expect(Object.keys(stored).sort()).toEqual(expected);
    expect(stored.beta_49).toBe('note 49 from beta');
    // The lock is released and no temp files are left behind.
    expect(readdirSync(join(workDir, 'Forge')).sort()).toEqual(['.scratchpad.json']);
    // A process that started before the others wrote still sees their keys (no stale copy in memory).
    const list = await new Scratchpad(workDir).run('list');
    expect(list.keys).toHaveLength(100);
  }, 60_000);

  it('keeps a damaged file aside and says so in the tool result, instead of silently starting over', async () => {
    const padDir = join(f.workDir, 'Forge');
    mkdirSync(padDir, { recursive: true });
    const damaged = '{"decisions": "use WAL", "half-written';
    writeFileSync(join(padDir, '.scratchpad.json'), damaged);
    const c = await connect(f);
    try {
      const listed = jsonOf<{ keys: string[]; notice: string }>(await c.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'list' } }));
      expect(listed.keys).toEqual([]);
      expect(listed.notice).toMatch(/damaged \(it is not valid JSON/);
      const aside = readdirSync(padDir).find((n) => n.startsWith('.scratchpad.json.corrupt-'));
      expect(aside).toBeDefined();
      expect(listed.notice).toContain(aside);
      expect(readFileSync(join(padDir, aside!), 'utf8')).toBe(damaged);
      // Reported once: the next call works on the new scratchpad without the notice.
      const wrote = jsonOf(await c.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'write', key: 'decisions', value: 'use WAL' } }));
      expect(wrote).toEqual({ key: 'decisions', operation: 'write', length: 7 });

      // A damaged file found by a failing read is named in the error the client reads.
      writeFileSync(join(padDir, '.scratchpad.json'), '["not", "an", "object"]');
      const missing = await c.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'read', key: 'decisions' } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/no key "decisions".*damaged \(it is not an object of text notes\); it was kept as .*corrupt-/);
      expect(readdirSync(padDir).filter((n) => n.includes('.corrupt-'))).toHaveLength(2);
    } finally {
      await c.close();
    }
  });

  it('never answers a key that is only a name on every object (toString, __proto__)', async () => {
    const pad = new Scratchpad(join(f.root, 'proto-work'));
    await expect(pad.run('read', 'toString')).rejects.toThrow(/no key "toString"/);
    await pad.run('write', '__proto__', 'kept as a note');
    expect((await pad.run('read', '__proto__')).value).toBe('kept as a note');
    expect(existsSync(join(f.root, 'proto-work', 'Forge', '.scratchpad.json.lock'))).toBe(false);
  });
});
