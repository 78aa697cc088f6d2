import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOGUE, ErrorCode } from '../../src/errors/catalogue';
import { seedCardScene } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { seedHigh } from '../pages/lifecycle-fixtures';
import { pageId, seedPages } from '../pages/page-fixtures';
import { createEmptyDatabase, EmptyDatabase } from '../support/empty-database';
import { useScene } from '../support/scene';
import { createTestApp, TestApp } from '../support/test-app';
import { runPackageBin, tscErrors } from '../support/package-bin';
import { ApiError, connect, health, workspace } from './generated-client/workspace-client';

const ROOT = join(__dirname, '../..');
const CLIENT = join(__dirname, 'generated-client/workspace-client.ts');

/** Uses of the client tsc must refuse, so a clean check cannot come from types that went `any`. */
const MISUSE = `import { Body, connect, workspace } from './workspace-client';
export const misspeltField = { titel: 'x' } satisfies Body<'/v1/{team_id}/pages/{page_id}', 'patch'>;
export const unknownAnswerField = async () => (await workspace(connect(''), 't').getPage('1')).parent_id;
`;

/** Generates api.d.ts from the served document beside a copy of the client, and runs tsc over both. */
async function typeCheckAgainst(documentUrl: URL): Promise<string[]> {
  const cache = join(ROOT, 'node_modules/.cache'); // inside node_modules, so the copy resolves openapi-fetch
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'generated-client-'));
  try {
    await runPackageBin('openapi-typescript', 'openapi-typescript', [documentUrl.href, '-o', 'api.d.ts'], dir);
    const client = await readFile(CLIENT, 'utf8');
    await writeFile(join(dir, 'workspace-client.ts'), client.replace('// @ts-nocheck', '//')); // same line numbers
    await writeFile(join(dir, 'misuse.ts'), MISUSE);
    const tsconfig = { extends: join(ROOT, 'tsconfig.json'), compilerOptions: { noEmit: true, types: ['node'] } };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: [], files: ['misuse.ts'] }));
    return await tscErrors(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The contract's error answer for a catalogue entry, as the client's ApiError carries it. */
const refusal = (code: ErrorCode) => {
  const { status, sec } = CATALOGUE[code];
  return { status, body: { error: { code: status, sec, message: expect.any(String), id: expect.any(String) } } };
};
const tokenOf = (authorization: string) => authorization.slice('Bearer '.length);

describe('a client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  const s = useScene();
  let baseUrl: string;
  let member: ReturnType<typeof workspace>;
  beforeAll(async () => {
    await s.t.app.listen(0, '127.0.0.1');
    baseUrl = await s.t.app.getUrl();
    member = workspace(connect(baseUrl, tokenOf(s.ws.auth.member)), s.ws.teamId);
  });

  describe('type-checked by tsc against the types generated from the served document', () => {
    let errors: string[];
    beforeAll(async () => {
      errors = await typeCheckAgainst(new URL('/openapi.json', baseUrl));
    }, 60_000);

    it('compiles the client unchanged', () => {
      expect(errors.filter((line) => !line.startsWith('misuse.ts'))).toEqual([]);
    });

    it('refuses a misspelt body field and a field the answer does not have', () => {
      expect(errors).toEqual([
        expect.stringMatching(/^misuse\.ts\(2,.*error TS2561: .*'titel' does not exist/),
        expect.stringMatching(/^misuse\.ts\(3,.*error TS2339: Property 'parent_id' does not exist/),
      ]);
    });
  });

  describe('health checks', () => {
    // /health/live can only fail on a request body (400, 413, 415) or inside the server: no error to drive here
    it('answers live and ready', async () => {
      const checks = health(connect(baseUrl));
      expect(await checks.live()).toBe('ok');
      expect(await checks.ready()).toBe('ok');
    });

    describe('on a database with no migrations applied', () => {
      let empty: EmptyDatabase;
      let unready: TestApp;
      beforeAll(async () => {
        empty = await createEmptyDatabase();
        unready = await createTestApp({ DATABASE_URL: empty.url });
        await unready.app.listen(0, '127.0.0.1');
      });
      afterAll(async () => {
        await unready?.close();
        await empty?.drop();
      });

      it('is not ready (503 NOT_READY)', async () => {
        const checks = health(connect(await unready.app.getUrl()));
        await expect(checks.ready()).rejects.toMatchObject(refusal('NOT_READY'));
        await expect(checks.ready()).rejects.toBeInstanceOf(ApiError);
      });
    });
  });

  describe('note templates', () => {
    it('reads a template, and answers 404 for an unknown one', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { title: 'Standup' });
      expect(await member.getTemplate(id)).toMatchObject({ id, title: 'Standup', is_shared: false });
      await expect(member.getTemplate('tpl-none')).rejects.toMatchObject(refusal('NOTE_TEMPLATE_NOT_FOUND'));
    });

    it("rewrites the caller's template, and refuses someone else's (403)", async () => {
      const id = await seedTemplate(s.t.app, s.ws, { context: 'Summarise' });
      expect(await member.rewriteTemplate(id, 'Retro', [{ title: 'Went well' }])).toMatchObject({
        id,
        title: 'Retro',
        context: '',
        sections: [{ title: 'Went well', description: '' }],
      });
      const admins = await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.admin, is_shared: true });
      await expect(member.rewriteTemplate(admins, 'Mine', [])).rejects.toMatchObject(refusal('ACCESS_DENIED'));
    });

    it('creates, lists and deletes templates, and answers 404 for a deleted one', async () => {
      const created = await member.createTemplate('Retro', [{ title: 'Went well' }]);
      expect(created).toMatchObject({ title: 'Retro', sections: [{ title: 'Went well', description: '' }] });
      const listed = await member.listTemplates({ limit: 1000 });
      expect(listed.note_templates.map((t: { id: string }) => t.id)).toContain(created.id);
      expect(await member.deleteTemplate(created.id)).toBeUndefined();
      await expect(member.getTemplate(created.id)).rejects.toMatchObject(refusal('NOTE_TEMPLATE_NOT_FOUND'));
      await expect(member.deleteTemplate(created.id)).rejects.toMatchObject(refusal('NOTE_TEMPLATE_NOT_FOUND'));
    });
  });

  describe('pages', () => {
    it('reads a page with its place in the tree, and answers 404 for an unknown one', async () => {
      const [parent, second] = [pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [{ id: parent }, { parent }, { id: second, parent }]);
      expect(await member.getPage(second)).toMatchObject({ id: second, parent_page_id: parent, position: 1 });
      await expect(member.getPage('999999999')).rejects.toMatchObject(refusal('PAGE_NOT_FOUND'));
    });

    it('changes its fields and clears its icon and cover with null', async () => {
      const [id] = await seedPages(s.t.app, s.ws, [{}]);
      expect(await member.restylePage(id, 'Handbook', '📘')).toMatchObject({
        title: 'Handbook',
        font: 'serif',
        icon: { type: 'emoji', src: '📘' },
        cover_image: { positionY: 40, object_fit: 'cover' },
      });
      const cleared = await member.clearPageImages(id);
      expect([cleared.icon, cleared.cover_image]).toEqual([undefined, undefined]);
    });

    it('moves a page under another at a position, and refuses a move under its own subpage (400)', async () => {
      const [parent, first, moved, below] = [pageId(), pageId(), pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [
        { id: parent },
        { id: first, parent },
        { id: moved },
        { id: below, parent: moved },
      ]);
      expect(await member.movePage(moved, parent, 0)).toMatchObject({ parent_page_id: parent, position: 0 });
      expect(await member.getPage(first)).toMatchObject({ position: 1 });
      await expect(member.movePage(moved, below, 0)).rejects.toMatchObject(refusal('PAGE_PARENT_CYCLE'));
    });

    it('archives a page, and answers 404 for an unknown one', async () => {
      const [id] = await seedPages(s.t.app, s.ws, [{}]);
      expect((await member.archivePage(id)).archived).toMatchObject({ user_id: s.ws.users.member, parent_page_id: '' });
      await expect(member.archivePage('999999999')).rejects.toMatchObject(refusal('PAGE_NOT_FOUND'));
    });

    // A new page gets the id after the workspace's highest: seeding high keeps it clear of pageId()'s seeds
    it('creates, lists, copies and deletes pages, and refuses a parent that does not exist (404)', async () => {
      const [parent] = await seedHigh(s.t.app, s.ws, [{}]);
      const created = await member.createPage(s.ws.projectId, 'Runbook', parent);
      expect(created).toMatchObject({ title: 'Runbook', parent_page_id: parent, position: 0 });
      const children = await member.listPages({ parent_page_id: parent });
      expect(children.pages.map((p: { id: string }) => p.id)).toEqual([created.id]);
      const copy = await member.copyPage(created.id, 'Runbook (copy)', true);
      expect(copy).toMatchObject({ title: 'Runbook (copy)', parent_page_id: parent, position: 1 });
      expect(await member.deletePage(created.id)).toBeUndefined();
      await expect(member.getPage(created.id)).rejects.toMatchObject(refusal('PAGE_NOT_FOUND'));
      expect((await member.getPage(copy.id)).position).toBe(0);
      await expect(member.createPage(s.ws.projectId, 'Orphan', '999999999')).rejects.toMatchObject(
        refusal('PARENT_PAGE_NOT_FOUND'),
      );
    });
  });

  describe('cards', () => {
    it('attaches tags in the order given, and refuses a tag of another project (404)', async () => {
      const { cardId, usable, foreign } = await seedCardScene(s.t.app, s.ws);
      expect(await member.tagCard(cardId, [usable[1], usable[0]])).toBeUndefined();
      expect((await member.getCard(cardId)).tags.map((tag: { id: string }) => tag.id)).toEqual([usable[1], usable[0]]);
      await expect(member.tagCard(cardId, [usable[2], foreign])).rejects.toMatchObject(refusal('TAG_NOT_FOUND'));
    });

    it('creates, lists, renames and deletes tags, takes one off a card, and refuses a taken name (409)', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      const tag = await member.createTag(`Client ${cardId}`, '#123456');
      expect(tag).toMatchObject({ name: `Client ${cardId}`, project_id: null, total_cards: 0 });
      await expect(member.createTag(`client ${cardId}`, 'red')).rejects.toMatchObject(refusal('TAG_NAME_TAKEN'));
      expect((await member.renameTag(tag.id, `Renamed ${cardId}`)).slug).toBe(`renamed-${cardId}`);
      const listed = await member.listTags({ all: true, limit: 500 });
      expect(listed.tags.map((t: { id: string }) => t.id)).toContain(tag.id);
      await member.tagCard(cardId, [usable[0], tag.id]);
      expect(await member.untagCard(cardId, usable[0])).toBeUndefined();
      expect(await member.deleteTag(tag.id)).toBeUndefined();
      expect((await member.getCard(cardId)).tags).toEqual([]);
      await expect(member.deleteTag(tag.id)).rejects.toMatchObject(refusal('TAG_NOT_FOUND'));
    });

    it('reads a card, and answers 401 to a token it does not know', async () => {
      const { cardId } = await seedCardScene(s.t.app, s.ws);
      expect(await member.getCard(cardId)).toMatchObject({ id: cardId, title: 'Fix login', tags: [] });
      const stranger = workspace(connect(baseUrl, 'not-a-token'), s.ws.teamId);
      await expect(stranger.getCard(cardId)).rejects.toMatchObject(refusal('UNAUTHENTICATED'));
    });
  });
});
