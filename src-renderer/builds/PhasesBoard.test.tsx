import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PhaseView } from '../../src-main/api/builds';
import { PhasesBoard } from './PhasesBoard';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

function phase(over: Partial<PhaseView> & { number: number }): PhaseView {
  return { name: `Phase ${over.number}`, status: 'pending', plan: [], signOff: null, tests: [], findings: [], startedAt: null, finishedAt: null, ...over };
}

describe('the phases board', () => {
  it('shows each task with its done mark, and a severe finding says it blocks the next phase', () => {
    const html = renderToStaticMarkup(
      <PhasesBoard
        currentPhase={1}
        phases={[
          phase({ number: 0, name: 'Adder', status: 'signed_off', plan: [{ number: 1, text: 'Write add', done: true, doneAt: '2026-11-21T09:01:00.000Z' }] }),
          phase({
            number: 1,
            name: 'Counter',
            status: 'in_progress',
            plan: [
              { number: 1, text: 'Write counter', done: true, doneAt: '2026-11-21T09:05:00.000Z' },
              { number: 2, text: 'Write its test', done: false, doneAt: null },
            ],
            tests: [{ at: '2026-11-21T09:06:00.000Z', command: 'npm test', passed: true, exitCode: 0, by: 'forge', output: 'ok 1' }],
            findings: [{ severity: 'severe', source: 'contract_text', file: 'README.md', message: 'README.md repeats the blueprint word for word.' }],
            signOff: { at: '2026-11-21T09:06:00.000Z', deliverables: ['src/counter.js'], tests: 'PASS', accepted: false },
          }),
        ]}
      />,
    );
    expect(text(html)).toContain('|1/2 done|✓|1. Write counter|');
    expect(text(html)).toContain('|○|2. Write its test|');
    expect(html).toContain('data-testid="phase-blocked"');
    expect(text(html)).toContain('A severe finding blocks advancing to the next phase until the builder fixes it.');
    expect(html).toContain('data-severity="severe"');
    expect(text(html)).toContain('|passed|run by Forge|npm test|');
    expect(html).toContain('data-accepted="false"');
    expect(text(html)).toContain('|rejected|');
    // The card the builder is on is marked; the other is not.
    expect(html.match(/is-current/g)).toHaveLength(1);
  });

  it("names a spec-kit phase by the plan's own id (Phase 3.1), not by its stored position", () => {
    const html = renderToStaticMarkup(<PhasesBoard currentPhase={0} phases={[phase({ number: 0, id: '3.1', name: 'Setup' })]} />);
    expect(text(html)).toContain('|Phase 3.1|');
    expect(text(html)).not.toContain('Phase 0');
  });

  it('does not claim a signed-off phase is blocked by a finding fixed before the sign-off', () => {
    const html = renderToStaticMarkup(
      <PhasesBoard
        currentPhase={1}
        phases={[phase({ number: 0, status: 'signed_off', findings: [{ severity: 'severe', source: 'tests', file: null, message: 'Tests failed.' }] })]}
      />,
    );
    expect(html).toContain('data-severity="severe"');
    expect(html).not.toContain('phase-blocked');
  });
});
