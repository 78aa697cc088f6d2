import { Client } from 'pg';
import request from 'supertest';
import { ExportService } from '../../src/export/export.service';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { itOnOneNode } from '../support/citus';
import { testDatabaseUrl } from '../support/test-config';
import { seedPages } from '../pages/page-fixtures';
import { sharePage } from './public-page-fixtures';

interface ExportedPage {
  id: string;
  alias_id: string;
  title: string;
}

describe('an alias_id names one page of the whole service', () => {
  const s = useScene();
  const publicTitle = async (path: string) =>
    (await request(s.t.app.getHttpServer()).get(path).set('Accept', 'application/json').expect(200)).body.page
      .title as string;
  const pageOf = async (teamId: string, auth: string, id: string) =>
    (await s.t.http.get(`/v1/${teamId}/pages/${id}`).set('Authorization', auth).expect(200)).body.page as {
      alias_id: string;
      is_public: boolean;
      public_settings: { url: string };
      collaboration?: unknown;
    };

  /** Workspace A's pages as the other workspace's, titled apart: an operator cloning a workspace. */
  const asOtherWorkspace = async (title: string) => {
    const exported = (await s.t.app.get(ExportService).exportWorkspace(s.ws.teamId)) as { pages: ExportedPage[] };
    const pages = JSON.parse(JSON.stringify(exported.pages).replaceAll(s.ws.teamId, s.other.teamId)) as ExportedPage[];
    return { pages: pages.map((page) => ({ ...page, title })) };
  };

  it("a workspace's export imported as another: the copies get new aliases, each URL serves its page", async () => {
    const shared = await sharePage(s, { title: 'The original' });
    const clone = await asOtherWorkspace('The clone');
    expect(clone.pages.find((page) => page.id === shared.id)!.alias_id).toBe(shared.aliasId);

    await importDocument(s.t.app, clone);

    const copy = await pageOf(s.other.teamId, s.other.auth.member, shared.id);
    expect(copy.is_public).toBe(true);
    expect(copy.alias_id).not.toBe(shared.aliasId);
    expect(await publicTitle(shared.path)).toBe('The original');
    expect(await publicTitle(new URL(copy.public_settings.url).pathname)).toBe('The clone');

    // Importing the same document again keeps the alias the first import gave.
    await importDocument(s.t.app, await asOtherWorkspace('The clone, again'));
    expect((await pageOf(s.other.teamId, s.other.auth.member, shared.id)).alias_id).toBe(copy.alias_id);
    expect(await publicTitle(shared.path)).toBe('The original');
  });

  it('one document giving one alias to pages of two workspaces: the second gets a new one', async () => {
    const alias = '6f9c2f4e-3b7a-4c1d-9e8f-0a1b2c3d4e5f';
    const page = (teamId: string, user: string, title: string) => ({
      team_id: teamId,
      id: '900001',
      project_id: '1',
      title,
      owner_id: user,
      alias_id: alias,
      is_public: true,
    });
    await importDocument(s.t.app, {
      pages: [
        page(s.ws.teamId, `${s.ws.teamId}-member`, 'First in the document'),
        page(s.other.teamId, `${s.other.teamId}-member`, 'Second in the document'),
      ],
    });
    const first = await pageOf(s.ws.teamId, s.ws.auth.member, '900001');
    const second = await pageOf(s.other.teamId, s.other.auth.member, '900001');
    expect(first.alias_id).toBe(alias);
    expect(second.alias_id).not.toBe(alias);
    expect(await publicTitle(`/p/${alias}`)).toBe('First in the document');
    expect(await publicTitle(`/p/${second.alias_id}`)).toBe('Second in the document');
  });

  it('an alias another page of the workspace keeps is refused, and the import changes nothing', async () => {
    const held = await sharePage(s, { title: 'Holder' });
    const [other] = await seedPages(s.t.app, s.ws, [{ title: 'Would take it' }]);
    // The collaboration token is issued anew on each read: the rest of the page is what must not move.
    const unchanged = async () => {
      const { collaboration: _token, ...page } = await pageOf(s.ws.teamId, s.ws.auth.member, other);
      return page;
    };
    const before = await unchanged();
    const taking = { team_id: s.ws.teamId, id: other, project_id: '1', owner_id: `${s.ws.teamId}-member` };
    await expect(importDocument(s.t.app, { pages: [{ ...taking, alias_id: held.aliasId }] })).rejects.toThrow(
      `alias_id "${held.aliasId}" is already used by page ${held.id}`,
    );
    expect(await unchanged()).toEqual(before);
  });

  itOnOneNode(
    'the database refuses a second page with an alias another workspace holds',
    'a unique key there holds team_id, so an alias is unique within a workspace (docs/citus.md)',
    async () => {
      const shared = await sharePage(s, { title: 'Held' });
      const [other] = await seedPages(s.t.app, s.other, [{ title: 'Would take it' }]);
      const db = new Client({ connectionString: testDatabaseUrl() });
      await db.connect();
      try {
        await expect(
          db.query('UPDATE pages SET alias_id = $3 WHERE team_id = $1 AND id = $2', [
            s.other.teamId,
            other,
            shared.aliasId,
          ]),
        ).rejects.toMatchObject({ code: '23505', constraint: 'pages_alias_id_key' });
      } finally {
        await db.end();
      }
    },
  );
});
