import { INPUT_LIMITS } from '../../src/common/input-limits';
import { CONTEXT_MAX_LENGTH, SECTIONS_MAX } from '../../src/notes/dto/update-note-template.dto';
import { ROBOTS_DIRECTIVES } from '../../src/pages/page-options';
import { seedCardScene } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { seedPages } from '../pages/page-fixtures';
import { expectError } from '../support/expect-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';

type Target = 'page' | 'template' | 'card';

/** One bounded request field: a body exactly at its limit is accepted, one past it is a 400 naming the field. */
interface Bound {
  field: string;
  target: Target;
  at: (limit: number) => object;
  past: (limit: number) => object;
  limit: number;
  /** Where the value at the limit names nothing, the answer shows it passed validation: a 404, not a 400. */
  acceptedWith?: number;
}

const text = (length: number) => 'é'.repeat(length); // code points, not bytes or UTF-16 units
const url = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
const icon = (fields: object) => ({ icon: { type: 'icon', src: 'file', ...fields } });
const cover = (fields: object) => ({ cover_image: { type: 'image', src: 'https://example.com/c.png', ...fields } });
const section = (fields: object) => ({ sections: [{ title: 'S', ...fields }] });

const BOUNDS: Bound[] = [
  {
    field: 'title',
    target: 'page',
    limit: INPUT_LIMITS.titleMax,
    at: (n) => ({ title: text(n) }),
    past: (n) => ({ title: text(n + 1) }),
  },
  {
    field: 'icon.src',
    target: 'page',
    limit: INPUT_LIMITS.imageSrcMax,
    at: (n) => icon({ src: `data:image/png;base64,${'A'.repeat(n - 22)}` }),
    past: (n) => icon({ src: `data:image/png;base64,${'A'.repeat(n - 21)}` }),
  },
  ...['id', 'blurhash', 'color', 'emoji'].map((label): Bound => ({
    field: `icon.${label}`,
    target: 'page',
    limit: INPUT_LIMITS.labelMax,
    at: (n) => icon({ [label]: text(n) }),
    past: (n) => icon({ [label]: text(n + 1) }),
  })),
  {
    field: 'cover_image.src',
    target: 'page',
    limit: INPUT_LIMITS.imageSrcMax,
    at: (n) => cover({ src: url(n) }),
    past: (n) => cover({ src: url(n + 1) }),
  },
  {
    field: 'cover_image.positionY',
    target: 'page',
    limit: INPUT_LIMITS.positionYMax,
    at: (n) => cover({ positionY: n }),
    past: (n) => cover({ positionY: n + 1 }),
  },
  {
    field: 'cover_image.positionY',
    target: 'page',
    limit: INPUT_LIMITS.positionYMin,
    at: (n) => cover({ positionY: n }),
    past: (n) => cover({ positionY: n - 1 }),
  },
  {
    field: 'position',
    target: 'page',
    limit: INPUT_LIMITS.positionMax,
    at: (n) => ({ position: n }),
    past: (n) => ({ position: n + 1 }),
  },
  {
    field: 'public_settings.url',
    target: 'page',
    limit: INPUT_LIMITS.urlMax,
    at: (n) => ({ public_settings: { url: url(n) } }),
    past: (n) => ({ public_settings: { url: url(n + 1) } }),
  },
  {
    field: 'public_settings.robots',
    target: 'page',
    limit: ROBOTS_DIRECTIVES.length,
    at: () => ({ public_settings: { robots: [...ROBOTS_DIRECTIVES] } }),
    past: () => ({ public_settings: { robots: [...ROBOTS_DIRECTIVES, 'all'] } }),
  },
  {
    field: 'project_id',
    target: 'page',
    limit: 64,
    at: (n) => ({ project_id: 'p'.repeat(n) }),
    past: (n) => ({ project_id: 'p'.repeat(n + 1) }),
    acceptedWith: 404,
  },
  {
    field: 'parent_page_id',
    target: 'page',
    limit: 19,
    at: (n) => ({ parent_page_id: '9'.repeat(n) }),
    past: (n) => ({ parent_page_id: '9'.repeat(n + 1) }),
    acceptedWith: 404,
  },
  {
    field: 'title',
    target: 'template',
    limit: INPUT_LIMITS.titleMax,
    at: (n) => ({ title: text(n) }),
    past: (n) => ({ title: text(n + 1) }),
  },
  {
    field: 'context',
    target: 'template',
    limit: CONTEXT_MAX_LENGTH,
    at: (n) => ({ context: text(n) }),
    past: (n) => ({ context: text(n + 1) }),
  },
  {
    field: 'sections',
    target: 'template',
    limit: SECTIONS_MAX,
    at: (n) => ({ sections: Array.from({ length: n }, () => ({ title: 'S' })) }),
    past: (n) => ({ sections: Array.from({ length: n + 1 }, () => ({ title: 'S' })) }),
  },
  {
    field: 'sections[0].title',
    target: 'template',
    limit: INPUT_LIMITS.titleMax,
    at: (n) => section({ title: text(n) }),
    past: (n) => section({ title: text(n + 1) }),
  },
  {
    field: 'sections[0].description',
    target: 'template',
    limit: INPUT_LIMITS.sectionDescriptionMax,
    at: (n) => section({ description: text(n) }),
    past: (n) => section({ description: text(n + 1) }),
  },
  {
    field: 'icon.src',
    target: 'template',
    limit: INPUT_LIMITS.imageSrcMax,
    at: (n) => icon({ src: text(n) }),
    past: (n) => icon({ src: text(n + 1) }),
  },
  {
    field: 'id',
    target: 'card',
    limit: 19,
    at: (n) => ({ id: '9'.repeat(n) }),
    past: (n) => ({ id: '9'.repeat(n + 1) }),
    acceptedWith: 404,
  },
  {
    field: 'ids',
    target: 'card',
    limit: 19,
    at: (n) => ({ ids: ['9'.repeat(n)] }),
    past: (n) => ({ ids: ['9'.repeat(n + 1)] }),
    acceptedWith: 404,
  },
];

describe(
  'bounded request fields: at the limit accepted, ' + 'one past it a 400 naming the field that changes nothing',
  () => {
    const s = useScene();

    /** A fresh resource of the target's kind, its URL for writes and what a GET shows of it. */
    async function seed(target: Target): Promise<{ write: string; read: string; tagIds: string[] }> {
      const base = `/v1/${s.ws.teamId}`;
      if (target === 'page') {
        const [id] = await seedPages(s.t.app, s.ws, [{}]);
        return { write: `${base}/pages/${id}`, read: `${base}/pages/${id}`, tagIds: [] };
      }
      if (target === 'template') {
        const id = await seedTemplate(s.t.app, s.ws);
        return { write: `${base}/notes/templates/${id}`, read: `${base}/notes/templates/${id}`, tagIds: [] };
      }
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      return { write: `${base}/cards/${cardId}/tags`, read: `${base}/cards/${cardId}`, tagIds: usable };
    }

    const send = (target: Target, url: string, body: object) =>
      s.t.http[target === 'card' ? 'post' : 'patch'](url).set('Authorization', s.ws.auth.member).send(body);

    /** What a GET shows, without the per-request collaboration token. */
    async function stored(url: string): Promise<unknown> {
      const body = (await s.t.http.get(url).set('Authorization', s.ws.auth.member).expect(200)).body;
      if (body.page) delete body.page.collaboration;
      return body;
    }

    it.each(BOUNDS.map((b) => [`${b.target} ${b.field} (limit ${b.limit})`, b] as const))('%s', async (_, bound) => {
      const resource = await seed(bound.target);
      const accepted = await send(bound.target, resource.write, bound.at(bound.limit));
      const success = bound.target === 'card' ? 204 : 200;
      expect({ status: accepted.status, message: accepted.body?.error?.message }).toEqual({
        status: bound.acceptedWith ?? success,
        message: bound.acceptedWith ? expect.any(String) : undefined,
      });

      const before = await stored(resource.read);
      const refused = await send(bound.target, resource.write, bound.past(bound.limit));
      const path = bound.field.replace(/[.[\]]/g, '\\$&');
      expectError(refused, 'VALIDATION_FAILED', new RegExp(`^(each of )?${path}\\b`));
      expect(await stored(resource.read)).toEqual(before);
    });

    it('takes ids up to 1,000 entries as sent, duplicates included', async () => {
      const { write, read, tagIds } = await seed('card');
      const ids = Array.from({ length: INPUT_LIMITS.tagIdsRawMax }, (_, n) => tagIds[n % tagIds.length]);
      await send('card', write, { ids }).expect(204);
      const card = await stored(read);
      expect((card as { card: { tags: Array<{ id: string }> } }).card.tags.map((t) => t.id).sort()).toEqual(
        [...tagIds].sort(),
      );
      const refused = await send('card', write, { ids: [...ids, tagIds[0]] });
      expectError(refused, 'VALIDATION_FAILED', /^ids has 1001 entries; at most 1000/);
    });

    it('refuses 200,000 copies of one tag id (about 1 MB) by their raw count, before de-duplication', async () => {
      const { write, read } = await seed('card');
      await importDocument(s.t.app, {
        tags: [{ team_id: s.ws.teamId, id: '7', project_id: null, name: 'seven', color: 'red' }],
      });
      const before = await stored(read);
      const refused = await send('card', write, { ids: Array.from({ length: 200_000 }, () => '7') });
      // The raw count in the message shows the list was refused as sent: de-duplicated, it would be one id.
      expectError(refused, 'VALIDATION_FAILED', /^ids has 200000 entries; at most 1000 are accepted/);
      expect(await stored(read)).toEqual(before);
    });
  },
);
