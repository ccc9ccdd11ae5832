// Child process for the host crash test: a full core with an analyst run (sub-agents in flight), a
// build and a scheduled job all under way, plus acknowledged memory writes. It prints ACK <id> for
// every write that returned, then READY once all three are running, and waits to be killed.
import { EnvSecretStore } from '../../config/secrets';
import { createCore } from '../core';

const [dataDir, mockUrl, projectDir] = process.argv.slice(2) as [string, string, string];
const core = createCore({ dataDir, mode: 'test', scheduler: true, secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'sk-test-crash' }) });
const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

await core.context.memory.ready;
must(await core.invoke('settings/set', { settings: { anthropicBaseUrl: mockUrl } }));
for (let i = 0; i < 40; i++) {
  const w = must(
    await core.invoke('memory/write', {
      path: '/memory/views/new.md',
      content: `# new — Crash-test view ${i}\nstatus: active\nconfidence: 0.5\nscope: rates\ncategory: macro_regime\n---\n## SUMMARY\nAcknowledged write ${i}.\n`,
    }),
  );
  process.stdout.write(`ACK ${w.id}\n`);
}
must(await core.invoke('agent/send', { message: 'Morning check: dispatch the context tasks.' }));
must(await core.invoke('builds/start', { workDir: projectDir, mini: true }));
must(await core.invoke('schedule/run-now', { job: 'morning_review' }));

const poll = setInterval(async () => {
  const tasks = must(await core.invoke('tasks/list', {})).tasks;
  const builds = must(await core.invoke('builds/list', {})).builds;
  const history = must(await core.invoke('schedule/history', { job: 'morning_review' }));
  const ready = tasks.some((t) => t.status === 'running') && builds.some((b) => b.status === 'running') && history.runs.some((r) => r.status === 'running');
  if (ready) {
    clearInterval(poll);
    // More acknowledged writes while everything runs: they must survive the kill too.
    for (let i = 40; i < 50; i++) {
      const w = must(
        await core.invoke('memory/write', {
          path: '/memory/views/new.md',
          content: `# new — Crash-test view ${i}\nstatus: active\nconfidence: 0.5\n---\n## SUMMARY\nAck ${i}.\n`,
        }),
      );
      process.stdout.write(`ACK ${w.id}\n`);
    }
    process.stdout.write('READY\n');
  }
}, 50);
// Never outlive a test run that forgot us.
setTimeout(() => process.exit(3), 90_000);
