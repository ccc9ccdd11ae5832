// Preloaded into a real `forge serve` by crash-policy.test.ts (node --import). On SIGUSR2 it reads
// the fault to stage from the file named by FORGE_TEST_FAULTS and sets it off the way real bugs
// do: from a timer, a listener, an unhandled 'error' event and a promise nobody awaits.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  const fault = JSON.parse(readFileSync(process.env.FORGE_TEST_FAULTS ?? '', 'utf8')) as { kind: 'stray' | 'fatal'; secret: string };
  if (fault.kind === 'fatal') {
    setTimeout(() => {
      throw Object.assign(new Error('fault-injection: spawn failed, cannot allocate memory'), { code: 'ENOMEM' });
    });
    return;
  }
  setTimeout(() => {
    // The run's token and a bearer header in a message: what a careless error could carry.
    throw new Error(`fault-injection: a timer threw while calling /api?token=${fault.secret} with Bearer ${fault.secret}`);
  });
  const emitter = new EventEmitter();
  emitter.on('tick', () => {
    throw new TypeError('fault-injection: a listener threw');
  });
  setImmediate(() => emitter.emit('tick'));
  // An 'error' event nobody listens for (a socket's, say) is thrown by emit itself.
  setImmediate(() => new EventEmitter().emit('error', new Error('fault-injection: an unhandled error event')));
  void Promise.reject(new Error('fault-injection: a promise rejected with no handler'));
});
