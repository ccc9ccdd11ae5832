import { describe, expect, it } from 'vitest';
import { parseMarkers } from './markers';

describe('parseMarkers — the plan', () => {
  it('reads numbered items in every style a model writes, joining wrapped lines and ignoring prose around the block', () => {
    const text = [
      'I have read the phase window. Here is my plan:',
      '',
      '=== PLAN ===',
      'Phase 0 tasks:',
      '1. Create the project scaffold',
      '   (package.json, tsconfig.json and a test runner)',
      '2) Add the health endpoint',
      '- [ ] 3. Write the users repository',
      '   - create table users',
      '   - insert and list',
      '**4.** Wire the router to the service',
      '=== END PLAN ===',
      '',
      'Starting with task 1.',
    ].join('\n');
    expect(parseMarkers(text).plan).toEqual([
      { number: 1, text: 'Create the project scaffold (package.json, tsconfig.json and a test runner)' },
      { number: 2, text: 'Add the health endpoint' },
      { number: 3, text: 'Write the users repository create table users insert and list' },
      { number: 4, text: 'Wire the router to the service' },
    ]);
  });

  it('numbers a bullet-only plan in order, keeping nested bullets with their task', () => {
    const text = '=== PLAN ===\n- Scaffold the app\n  - vite config\n- Add tests\n=== END PLAN ===';
    expect(parseMarkers(text).plan).toEqual([
      { number: 1, text: 'Scaffold the app vite config' },
      { number: 2, text: 'Add tests' },
    ]);
  });

  it('keeps a plan the model never closed, ending it at the next marker', () => {
    const p = parseMarkers('=== PLAN ===\n1. One\n2. Two\n=== TASK DONE: 1 ===');
    expect(p.plan?.map((i) => i.number)).toEqual([1, 2]);
    expect(p.tasksDone).toEqual([1]);
  });

  it('distinguishes "no plan" (null) from an empty plan block ([])', () => {
    expect(parseMarkers('Just prose.').plan).toBeNull();
    expect(parseMarkers('=== PLAN ===\n=== END PLAN ===').plan).toEqual([]);
  });
});

describe('parseMarkers — progress, sign-off and STOP', () => {
  it('collects TASK DONE marks in order, once each, in any case, bold or inline in a sentence', () => {
    const text =
      'Done with the scaffold.\n=== TASK DONE: 1 ===\n**=== task done: 2 ===**\nThat also finishes === TASK DONE: 3 === for good.\n===  TASK DONE:  2  ===';
    expect(parseMarkers(text).tasksDone).toEqual([1, 2, 3]);
  });

  it('reads a sign-off block with bullet deliverables and the phase number', () => {
    const text = [
      'All tests pass.',
      '=== PHASE SIGN-OFF: PASS ===',
      '**Phase:** 1 — Core API',
      'Deliverables:',
      '- GET /health',
      '- users repository',
      'Tests: PASS — 14 passed',
      '=== END PHASE SIGN-OFF ===',
    ].join('\n');
    expect(parseMarkers(text).signOff).toEqual({
      phase: '1 — Core API',
      phaseNumber: 1,
      deliverables: ['GET /health', 'users repository'],
      tests: 'PASS — 14 passed',
    });
  });

  it('splits a comma list of deliverables without breaking inside brackets', () => {
    const s = parseMarkers(
      '=== PHASE SIGN-OFF: PASS ===\nPhase: Genesis\nDeliverables: scaffold, routes (GET, POST), README\nTests: PASS\n=== END PHASE SIGN-OFF ===',
    ).signOff;
    expect(s).toEqual({ phase: 'Genesis', phaseNumber: null, deliverables: ['scaffold', 'routes (GET, POST)', 'README'], tests: 'PASS' });
  });

  it('does not treat a FAIL sign-off as a sign-off', () => {
    expect(parseMarkers('=== PHASE SIGN-OFF: FAIL ===\nPhase: 0\nTests: FAIL\n=== END PHASE SIGN-OFF ===').signOff).toBeNull();
  });

  it('reads a STOP code and its reason from the lines that follow', () => {
    const text =
      'I cannot continue.\n=== STOP: AMBIGUOUS_INTENT ===\nReason: the blueprint says users sign in with email,\nbut physics has a username field. Which one?';
    expect(parseMarkers(text).stop).toEqual({
      code: 'AMBIGUOUS_INTENT',
      reason: 'the blueprint says users sign in with email,\nbut physics has a username field. Which one?',
    });
  });

  it('accepts a STOP written in lower case with spaces, or bare with a valid code, but not "stop" in prose', () => {
    expect(parseMarkers('=== stop: environment limitation === python3 is not installed').stop).toEqual({
      code: 'ENVIRONMENT_LIMITATION',
      reason: 'python3 is not installed',
    });
    expect(parseMarkers('STOP: CONTRACT_CONFLICT\nschema and physics disagree on ids').stop?.code).toBe('CONTRACT_CONFLICT');
    expect(parseMarkers('STOP: let me think about this first').stop).toBeNull();
    expect(parseMarkers('STOP: let me think about this first').unknownStop).toBeNull();
  });

  it('returns an unknown STOP code as unknownStop, not as a stop the build would pause on', () => {
    const p = parseMarkers('=== STOP: NEED_MORE_TIME ===\nThe task is large.');
    expect(p.stop).toBeNull();
    expect(p.unknownStop).toEqual({ code: 'NEED_MORE_TIME', reason: 'The task is large.' });
  });
});

describe('parseMarkers — what it ignores', () => {
  it('ignores markers quoted inside code fences and counts them, while markers outside still count', () => {
    const text = [
      'When I finish I will write:',
      '```',
      '=== PHASE SIGN-OFF: PASS ===',
      'Phase: 0',
      'Tests: PASS',
      '=== END PHASE SIGN-OFF ===',
      '```',
      '~~~text',
      '=== STOP: AMBIGUOUS_INTENT ===',
      '~~~',
      '=== TASK DONE: 2 ===',
    ].join('\n');
    const p = parseMarkers(text);
    expect(p.signOff).toBeNull();
    expect(p.stop).toBeNull();
    expect(p.tasksDone).toEqual([2]);
    expect(p.fencedMarkers).toBe(3);
  });

  it('reads CRLF text with extra spaces and lower case the same as clean text', () => {
    const text =
      '  ===   plan   ===  \r\n1.   First task\r\n2.  Second task\r\n=== end plan ===\r\n=== Phase Sign-Off: Pass ===\r\nphase:  0\r\ndeliverables: a ,  b\r\ntests: pass\r\n=== end phase sign-off ===\r\n';
    const p = parseMarkers(text);
    expect(p.plan).toEqual([
      { number: 1, text: 'First task' },
      { number: 2, text: 'Second task' },
    ]);
    expect(p.signOff).toEqual({ phase: '0', phaseNumber: 0, deliverables: ['a', 'b'], tests: 'pass' });
  });

  it('finds nothing in prose with headings made of equals signs', () => {
    const p = parseMarkers('=== Results ===\nAll good.\n==========');
    expect(p).toEqual({ plan: null, tasksDone: [], signOff: null, stop: null, unknownStop: null, fencedMarkers: 0 });
  });
});
