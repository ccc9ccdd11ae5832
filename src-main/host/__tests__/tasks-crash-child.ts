// Child process for the restart test: starts tasks that never finish, says READY, and waits to be killed.
import { runAgent } from '../../tools/loop';
import { TaskExecutor } from '../../executor';
import { ScriptedSubAgents } from '../../executor/testing';
import { openWorkspace } from '../../fs';
import { SkillLoader } from '../../skills';
import { REPO_SKILLS, answer } from './tasks-harness';

const dataDir = process.argv[2]!;
const ws = openWorkspace({ dataDir, bundledSkillsDir: null, seedDir: null });
const executor = new TaskExecutor({
  db: ws.store.db,
  files: ws.fs,
  skills: new SkillLoader(REPO_SKILLS),
  model: new ScriptedSubAgents({ 'subagent:A': answer('never'), 'subagent:C': answer('never') }, { latencyMs: 600_000 }),
  runLoop: runAgent,
  toolsFor: () => ({ tools: [], context: {} }),
  concurrency: 1,
});
executor.submit('sess_crash', { id: 'A', skill: 'context-retrieval', objective: 'A long' });
executor.submit('sess_crash', { id: 'B', skill: 'view-validation', objective: 'B', dependsOn: ['A'] });
executor.submit('sess_crash', { id: 'C', skill: 'context-retrieval', objective: 'C queued' });
const poll = setInterval(() => {
  if (executor.find('sess_crash', 'A')?.status === 'running') {
    clearInterval(poll);
    process.stdout.write('READY\n');
  }
}, 5);
// Never outlive a test run that forgot us.
setTimeout(() => process.exit(3), 60_000);
