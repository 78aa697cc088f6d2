// Preload (`node -r`), for tests only: SIGKILLs the process at one point of one write, as the OOM killer or a
// lost machine would. Off unless CRASH_AT_STATEMENT names the write's prepared statement (pg query config `name`).
// CRASH_WHEN=after-commit (the default): once the write's change is committed (the COMMIT of the transaction that
// ran the statement resolves, or the statement itself when it ran outside a transaction), before any answer.
// CRASH_WHEN=before-commit: once the statement resolves inside its transaction, before its COMMIT; outside a
// transaction, just before the statement is sent. Either way the change is never committed.
const target = process.env.CRASH_AT_STATEMENT;
if (target) {
  const when = process.env.CRASH_WHEN || 'after-commit';
  const proto = require('pg').Client.prototype;
  const query = proto.query;
  const inTransaction = new WeakSet();
  const armed = new WeakSet();
  const die = () => {
    process.stderr.write(`crash-at-statement: SIGKILL ${when} ${target}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
  /** Runs `die` as soon as the query resolves, before whoever sent it sees its result. */
  const dieOnSuccess = (client, args) => {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (error, ...rest) => {
        if (!error) die();
        callback(error, ...rest);
      };
      return query.apply(client, args);
    }
    return query.apply(client, args).then((result) => {
      die();
      return result;
    });
  };
  proto.query = function (...args) {
    const first = args[0];
    const text = (typeof first === 'string' ? first : (first && first.text) || '').trim().toUpperCase();
    const name = first && typeof first === 'object' ? first.name : undefined;
    if (/^(BEGIN|START TRANSACTION)\b/.test(text)) inTransaction.add(this);
    if (/^(COMMIT|END)\b/.test(text)) {
      inTransaction.delete(this);
      if (armed.has(this)) return dieOnSuccess(this, args);
    }
    if (/^ROLLBACK\b/.test(text)) {
      inTransaction.delete(this);
      armed.delete(this);
    }
    if (name === target) {
      if (when === 'before-commit' && !inTransaction.has(this)) die();
      if (when === 'before-commit' || !inTransaction.has(this)) return dieOnSuccess(this, args);
      armed.add(this);
    }
    return query.apply(this, args);
  };
}
