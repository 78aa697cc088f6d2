// Runs jest specs on a PostgreSQL server of a given major, in a database created for the run and dropped
// after it, so `.ci/run` proves them on the oldest major the service supports when the machine has one.
// Without such a server it says why it skips, and exits 0.
//
//   node scripts/specs-on-postgres.js <server URL> <major> <jest arguments...>
'use strict';
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');

const [serverUrl, wanted, ...jestArgs] = process.argv.slice(2);
const server = new URL(serverUrl);
const where = `${server.hostname}:${server.port || 5432}`;

async function onServer(sql) {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The server's major, or why it cannot be used. */
async function serverMajor() {
  try {
    const [{ num }] = await onServer(`SELECT current_setting('server_version_num') AS num`);
    return { major: Math.floor(Number(num) / 10000) };
  } catch (error) {
    return { why: `no PostgreSQL to use at ${where} (${error.message})` };
  }
}

async function main() {
  const { major, why } = await serverMajor();
  if (why || major !== Number(wanted)) {
    console.log(`PostgreSQL ${wanted} specs SKIPPED: ${why ?? `the server at ${where} is PostgreSQL ${major}`}`);
    return 0;
  }
  const started = Date.now();
  const name = `wca_ci_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  try {
    console.log(`PostgreSQL ${major} at ${where}, database ${name}: jest ${jestArgs.join(' ')}`);
    const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;
    const run = spawnSync('npx', ['jest', ...jestArgs], {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: url },
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`PostgreSQL ${major} specs: ${run.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
    return run.status ?? 1;
  } finally {
    await onServer(`DROP DATABASE ${name} WITH (FORCE)`);
  }
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`specs-on-postgres: ${error.message}`);
    process.exit(1);
  },
);
