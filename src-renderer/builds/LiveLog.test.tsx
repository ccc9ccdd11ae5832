import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BuildLogEntry } from '../../src-main/api/builds';
import { LiveLog } from './LiveLog';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('the live log', () => {
  const at = '2026-11-21T09:00:00.000Z';
  const e = (seq: number, kind: BuildLogEntry['kind'], text: string, tool: string | null = null, isError = false): BuildLogEntry => ({
    seq,
    at,
    kind,
    text,
    tool,
    isError,
  });

  it('shows a call with its result folded, unfolds and marks a failed one, and highlights errors', () => {
    const html = renderToStaticMarkup(
      <LiveLog
        log={[
          e(1, 'tool_call', 'write_file({"path":"src/add.js"})', 'write_file'),
          e(2, 'tool_result', 'Wrote src/add.js (3 lines).', 'write_file'),
          e(3, 'tool_call', 'run_tests({})', 'run_tests'),
          e(4, 'tool_result', 'not ok 1 - adds\n# fail 1', 'run_tests', true),
          e(5, 'error', 'The model could not be reached.', null, true),
        ]}
      />,
    );
    const results = [...html.matchAll(/<details class="log-result"([^>]*)>/g)].map((m) => m[1]!);
    expect(results).toHaveLength(2);
    expect(results[0]).not.toContain(' open');
    expect(results[1]).toContain(' open');
    expect(text(html)).toContain('|write_file| |{&quot;path&quot;:&quot;src/add.js&quot;}|');
    expect(html.match(/is-problem/g)).toHaveLength(2);
    expect(text(html)).toContain('(+1 lines)');
  });
});
