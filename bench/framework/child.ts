/**
 * One hello-world server in its own process, so that its CPU time is its own:
 * `node child.js <framework>`; -> {type: 'ready', port}; <- 'reset' / 'stats' -> {answered, cpuMs}.
 */
import { countAnswers } from '../support/count-answers';
import { Framework, startFramework } from './servers';

let answered = 0;
let cpuAtReset = process.cpuUsage();
countAnswers(() => answered++);

process.on('message', (message: { type: string }) => {
  if (message.type === 'reset') {
    answered = 0;
    cpuAtReset = process.cpuUsage();
    process.send!({ type: 'reset' });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    process.send!({ type: 'stats', answered, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
});

void startFramework(process.argv[2] as Framework).then((port) => process.send!({ type: 'ready', port }));
