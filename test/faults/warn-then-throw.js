// Preload (`node -r`): once the service has started loading, Node warns (as pg does of sslmode=require), then
// an error nobody catches is thrown, as a bug would; what the service prints of each is the test's.
setTimeout(() => {
  process.emitWarning('warn-then-throw: a warning');
  setTimeout(() => {
    throw new Error('warn-then-throw: an uncaught error');
  }, 0);
}, 0);
