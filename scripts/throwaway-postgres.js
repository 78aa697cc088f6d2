// Starts a throwaway embedded PostgreSQL (the one `npm start` runs) in a temporary directory, prints its URL
// on stdout, and deletes it on SIGTERM or SIGINT: the database of scripts/container-check.sh when
// CHECK_DATABASE_URL is unset, so that the check needs no PostgreSQL of the machine's. Needs `npm run build`.
'use strict';
const { join } = require('node:path');
const { startThrowawayPostgres } = require(
  join(__dirname, '..', 'dist', 'src', 'database', 'embedded', 'throwaway-postgres.js'),
);

startThrowawayPostgres('postgres').then(
  (postgres) => {
    const end = () => postgres.destroy().finally(() => process.exit(0));
    process.once('SIGTERM', end);
    process.once('SIGINT', end);
    console.log(postgres.url);
    setInterval(() => undefined, 1 << 30); // keeps running until a signal
  },
  (error) => {
    console.error(`throwaway-postgres: ${error.message}`);
    process.exit(1);
  },
);
