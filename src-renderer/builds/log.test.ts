import { describe, expect, it } from 'vitest';
import type { BuildLogEntry } from '../../src-main/api/builds';
import { callArgs, firstLine, groupLog, isNearBottom, isProblem, mergeLog } from './log';

function entry(seq: number, kind: BuildLogEntry['kind'], text = `line ${seq}`, tool: string | null = null, isError = false): BuildLogEntry {
  return { seq, at: `2026-11-21T09:00:${String(seq % 60).padStart(2, '0')}.000Z`, kind, text, tool, isError };
}

describe('merging log lines', () => {
  it('appends a pushed line, keeps a line pushed and re-read once, and slots a late line in order', () => {
    const log = [entry(1, 'text'), entry(2, 'tool_call', 'read_file', 'read_file')];
    expect(mergeLog(log, [entry(3, 'tool_result')]).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(mergeLog(log, [entry(2, 'tool_call', 'read_file', 'read_file')]).map((e) => e.seq)).toEqual([1, 2]);
    expect(mergeLog([entry(1, 'text'), entry(3, 'text')], [entry(2, 'marker')]).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('keeps only the newest lines past the cap, so a long build cannot grow the window without bound', () => {
    const log = Array.from({ length: 5 }, (_, i) => entry(i + 1, 'text'));
    expect(mergeLog(log, [entry(6, 'text')], 5).map((e) => e.seq)).toEqual([2, 3, 4, 5, 6]);
    expect(mergeLog(log, [entry(7, 'text'), entry(6, 'text')], 4).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
  });
});

describe('grouping tool calls with their results', () => {
  it('pairs each result with the earliest waiting call of the same tool, even when a turn calls several tools', () => {
    const items = groupLog([
      entry(1, 'text', 'Plan ready'),
      entry(2, 'tool_call', 'src/add.js', 'write_file'),
      entry(3, 'tool_call', 'test/add.test.js', 'write_file'),
      entry(4, 'tool_call', 'node --test', 'run_tests'),
      entry(5, 'tool_result', 'wrote src/add.js', 'write_file'),
      entry(6, 'tool_result', 'wrote test/add.test.js', 'write_file'),
      entry(7, 'tool_result', '1 failing', 'run_tests', true),
      entry(8, 'marker', 'TASK DONE: 1'),
    ]);
    expect(items.map((i) => (i.type === 'tool' ? `${i.call.tool}:${i.call.text}→${i.result?.text ?? 'pending'}` : `${i.entry.kind}:${i.entry.text}`))).toEqual([
      'text:Plan ready',
      'write_file:src/add.js→wrote src/add.js',
      'write_file:test/add.test.js→wrote test/add.test.js',
      'run_tests:node --test→1 failing',
      'marker:TASK DONE: 1',
    ]);
  });

  it('shows a call still running with no result, and a result whose call scrolled away on its own', () => {
    const items = groupLog([entry(10, 'tool_result', 'old result', 'read_file'), entry(11, 'tool_call', 'a.js', 'read_file')]);
    expect(items.map((i) => (i.type === 'tool' ? ['tool', i.result] : ['entry', i.entry.kind]))).toEqual([
      ['entry', 'tool_result'],
      ['tool', null],
    ]);
  });
});

describe('reading the log', () => {
  it('highlights failed tools and errors but not ordinary lines', () => {
    expect([
      isProblem(entry(1, 'tool_result', 'x', 'run_tests', true)),
      isProblem(entry(2, 'error', 'model unreachable')),
      isProblem(entry(3, 'text')),
    ]).toEqual([true, true, false]);
  });

  it('follows new lines only when the user is at the bottom, not when they scrolled up to read', () => {
    expect(isNearBottom({ scrollTop: 580, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isNearBottom({ scrollTop: 300, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
  });

  it("shows a call's arguments once, without repeating the tool name the line already shows", () => {
    expect(callArgs({ tool: 'write_file', text: 'write_file({"path":"src/add.js"})' })).toBe('{"path":"src/add.js"}');
    expect(callArgs({ tool: 'write_file', text: 'write_file({"path":"src/a…' })).toBe('{"path":"src/a…');
    expect(callArgs({ tool: null, text: 'plain' })).toBe('plain');
  });

  it('folds a long result to its first line and says how many more there are', () => {
    expect(firstLine('ok 1 - adds\nok 2 - subtracts\n# pass 2')).toEqual({ head: 'ok 1 - adds', more: 2 });
    expect(firstLine('x'.repeat(200), 10).head).toBe(`${'x'.repeat(10)}…`);
  });
});
