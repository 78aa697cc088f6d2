import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';
import { uniqueTeamId } from '../support/fixtures';
import { testDatabaseUrl } from '../support/test-config';
import { runCli } from './run-cli';

/** A document using every collection of the import format, for one new workspace. */
function richDocument(team: string) {
  return {
    workspaces: [{ id: team, name: 'Acme' }],
    users: [
      { id: `${team}-u1`, name: 'Ada', email: 'ada@example.com' },
      { id: `${team}-u2`, name: 'Brian', email: 'brian@example.com' },
    ],
    members: [
      { team_id: team, user_id: `${team}-u1`, role: 'owner' },
      { team_id: team, user_id: `${team}-u2`, role: 'guest' },
    ],
    tokens: [
      {
        id: 'tok1',
        team_id: team,
        user_id: `${team}-u1`,
        token: `plain-${team}`,
        expires_at: null,
        actor: { type: 'user' },
      },
    ],
    projects: [{ team_id: team, id: '1', title: 'Docs' }],
    note_templates: [
      {
        team_id: team,
        id: 'tpl1',
        owner_id: `${team}-u1`,
        title: 'Standup',
        context: 'Daily',
        sections: [
          { title: 'Yesterday', description: '' },
          { title: 'Today', description: 'Plans' },
        ],
        ai_actions: true,
        is_shared: false,
        favourited_by: [`${team}-u1`],
      },
      {
        team_id: team,
        id: 'builtin',
        owner_id: null,
        title: 'Meeting',
        context: '',
        sections: [],
        ai_actions: false,
        is_shared: true,
      },
    ],
    pages: [
      {
        team_id: team,
        id: '10',
        project_id: '1',
        parent_page_id: '',
        title: 'Home',
        owner_id: `${team}-u1`,
        archived: false,
        members: [{ user_id: `${team}-u2`, role: 'member' }],
      },
      {
        team_id: team,
        id: '12',
        project_id: '1',
        parent_page_id: '10',
        title: 'Second child',
        owner_id: `${team}-u1`,
        archived: false,
      },
      {
        team_id: team,
        id: '11',
        project_id: '1',
        parent_page_id: '10',
        title: 'First child',
        owner_id: `${team}-u1`,
        archived: false,
      },
    ],
    tags: [
      { team_id: team, id: '100', project_id: null, name: 'bug', color: 'red' },
      { team_id: team, id: '101', project_id: '1', name: 'docs', color: 'blue' },
    ],
    cards: [
      {
        team_id: team,
        id: '500',
        project_id: '1',
        title: 'Fix login',
        owner_id: `${team}-u1`,
        members: [`${team}-u1`],
        tags: ['101', '100'],
      },
    ],
  };
}

/** A document's collections, loosely typed, for spoiling one field. */
type Doc = Record<string, Array<Record<string, unknown>>>;

/** The directories writeJson made, removed after the specs. */
const scratch: string[] = [];

async function writeJson(value: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wca-cli-'));
  scratch.push(dir);
  const file = join(dir, 'document.json');
  await writeFile(file, JSON.stringify(value));
  return file;
}

describe('npm run cli', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('calls itself by its bin name in its help', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(/^Usage: wca /);
  });

  it('says why a DATABASE_URL does not work in one line, as the service does', async () => {
    const url = new URL(testDatabaseUrl());
    url.pathname = '/wca_no_such_database';
    const result = await runCli(['export', '--team', 'acme'], { DATABASE_URL: url.toString() });
    expect(result.code).toBe(1);
    const missing = /^error: DATABASE_URL postgres(?:ql)?:\S+\/wca_no_such_database: database missing \(.+\); /;
    expect(result.stderr).toMatch(new RegExp(`${missing.source}create that database .+\n$`));
  });

  it('imports a document and exports the same data back', async () => {
    const team = uniqueTeamId();
    const document = richDocument(team);
    const imported = await runCli(['import', await writeJson(document)]);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(imported.stdout)).toMatchObject({
      workspaces: 1,
      users: 2,
      members: 2,
      tokens: 1,
      note_templates: 2,
      pages: 3,
      tags: 2,
      cards: 1,
    });

    const exported = await runCli(['export', '--team', team]);
    expect(exported.code).toBe(0);
    const back = JSON.parse(exported.stdout);
    for (const [collection, entries] of Object.entries(document)) {
      const expected = (entries as Array<Record<string, unknown>>).map(({ token: _secret, ...entry }) => entry);
      const byKey = (e: Record<string, unknown>) =>
        `${(e.id as string | undefined) ?? ''}/${(e.user_id as string | undefined) ?? ''}`;
      const actual = new Map((back[collection] as Array<Record<string, unknown>>).map((e) => [byKey(e), e]));
      expect(actual.size).toBe(expected.length);
      for (const entry of expected) expect(actual.get(byKey(entry))).toMatchObject(entry);
    }
    expect(JSON.stringify(back.tokens)).not.toContain(`plain-${team}`);
    // Pages come back in tree order, siblings as listed.
    expect(back.pages.map((p: { id: string }) => p.id)).toEqual(['10', '12', '11']);

    const again = await runCli(['import', await writeJson(back)]);
    expect(again.code).toBe(0);
    expect(JSON.parse((await runCli(['export', '--team', team])).stdout)).toEqual(back);
  });

  it('rejects an invalid document naming the entry, and writes nothing of it', async () => {
    const team = uniqueTeamId();
    const document = richDocument(team);
    document.pages.push({
      team_id: team,
      id: '13',
      project_id: '1',
      parent_page_id: '99',
      title: 'Orphan',
      owner_id: `${team}-u1`,
      archived: false,
    });
    const result = await runCli(['import', await writeJson(document)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: pages\[3\].*99/);
    expect(result.stdout).toBe('');
    const exported = await runCli(['export', '--team', team]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/does not exist/);
  });

  it.each([
    ['a page title longer than the API takes', 'pages[1]', /title/, (d: Doc) => (d.pages[1].title = 'x'.repeat(256))],
    [
      'a cover offset past the API bound',
      'pages[2]',
      /positionY/,
      (d: Doc) => (d.pages[2].cover_image = { type: 'image', src: 'https://x.example/c.png', positionY: 10001 }),
    ],
    [
      'a public URL longer than the API takes',
      'pages[0]',
      /url/,
      (d: Doc) => (d.pages[0].public_settings = { url: `https://x.example/${'a'.repeat(2048)}` }),
    ],
    [
      'a list longer than any API body',
      'pages[0]',
      /watched_by/,
      (d: Doc) => (d.pages[0].watched_by = Array.from({ length: 1001 }, (_, n) => `u${n}`)),
    ],
    ['an over-long tag colour', 'tags[1]', /color/, (d: Doc) => (d.tags[1].color = 'c'.repeat(256))],
    ['a tag name longer than the API allows', 'tags[1]', /name/, (d: Doc) => (d.tags[1].name = 'n'.repeat(65))],
    [
      'page content longer than a creation allows',
      'pages[0]',
      /content/,
      (d: Doc) => (d.pages[0].content = 'c'.repeat(500_001)),
    ],
    [
      'an over-long template title',
      'note_templates[0]',
      /title/,
      (d: Doc) => (d.note_templates[0].title = 't'.repeat(256)),
    ],
  ])('refuses %s as the API would, naming the entry, and writes nothing', async (_case, entry, field, spoil) => {
    const team = uniqueTeamId();
    const document = richDocument(team) as unknown as Doc;
    spoil(document);
    const result = await runCli(['import', await writeJson(document)]);
    expect(result.code).toBe(1);
    expect(result.stderr.startsWith(`error: ${entry}`)).toBe(true);
    expect(result.stderr).toMatch(field);
    expect((await runCli(['export', '--team', team])).stderr).toMatch(/does not exist/);
  });

  it('creates a token that works, and revokes it', async () => {
    const team = uniqueTeamId();
    await runCli(['import', await writeJson(richDocument(team))]);
    const created = await runCli([
      'token',
      'create',
      '--team',
      team,
      '--user',
      `${team}-u1`,
      '--expires-in',
      '30d',
      '--name',
      'ci',
    ]);
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.stdout);
    expect(issued).toMatchObject({
      team_id: team,
      user_id: `${team}-u1`,
      name: 'ci',
      id: expect.any(String),
      token: expect.any(String),
    });
    expect(issued.expires_at - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    const read = () => t.http.get(`/v1/${team}/notes/templates/tpl1`).set('Authorization', `Bearer ${issued.token}`);
    await read().expect(200);
    const revoked = await runCli(['token', 'revoke', issued.id]);
    expect(revoked).toMatchObject({ code: 0 });
    expectError(await read(), 'UNAUTHENTICATED');
  });

  it('refuses a token for someone who is not a member, and an unknown revoke', async () => {
    const team = uniqueTeamId();
    await runCli(['import', await writeJson(richDocument(team))]);
    const created = await runCli(['token', 'create', '--team', team, '--user', 'stranger']);
    expect(created.code).toBe(1);
    expect(created.stderr).toMatch(/stranger is not a member/);
    const revoked = await runCli(['token', 'revoke', 'tok_nope']);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/No token has id tok_nope/);
  });
});
