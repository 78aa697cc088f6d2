const { Client } = require('pg');
const { WRITE_TEMPLATE } = require('/work/main/dist/src/notes/note-template-queries');
const { CLAIM_KEY } = require('/work/main/dist/src/safe-writes/idempotency-queries');
(async () => {
  const c = new Client('postgres://postgres@127.0.0.1:5432/sw15'); await c.connect();
  await c.query(`INSERT INTO users(id) VALUES ('u1') ON CONFLICT DO NOTHING`);
  await c.query(`INSERT INTO note_templates (team_id, id, owner_id, title, context, sections, ai_actions, is_shared, created_by, updated_by)
    VALUES ('t1','tpl1','u1','a','',  '[]', false, false, '{}', '{}') ON CONFLICT DO NOTHING`).catch(e => console.log(e.message));
  await c.query('SET plan_cache_mode = force_generic_plan');
  await c.query(`PREPARE w AS ${WRITE_TEMPLATE.text}`);
  await c.query(`PREPARE cl AS ${CLAIM_KEY.text}`);
  for (let i = 0; i < 3; i++) {
    const key = 'ex' + Date.now() + i; const claim = require('crypto').randomUUID();
    await c.query(`EXECUTE cl('t1','u1',$1, decode(md5('x')||md5('y'),'hex'), $2, 10000)`, [key, claim]);
    const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE w('t1','tpl1','u1','{}', $1, null,null,null,null,null, $2, $3)`, ['T' + i, key, claim]);
    if (i === 2) console.log(r.rows.map(x => x['QUERY PLAN']).join('\n'));
  }
  await c.end();
})().catch(e => console.log(e));
