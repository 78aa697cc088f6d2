/* eslint-disable-next-line @typescript-eslint/ban-ts-comment --
   ./api exists only at test time; the spec checks this file without the next line */
// @ts-nocheck
/**
 * How a user calls the Workspace Content API through a client generated from the served document:
 *   npx openapi-typescript http://localhost:3000/openapi.json -o api.d.ts   (the types)
 *   npm install openapi-fetch                                               (the calls, on fetch)
 * Every body below is checked by tsc against those types, and every answer read through them.
 * generated-client.e2e-spec.ts generates ./api.d.ts from the running service, type-checks this file and runs it.
 */
import createClient from 'openapi-fetch';
import type { paths } from './api';

/** The contract's error body; every error answer the document declares must fit it. */
export interface ErrorBody {
  error: { id: string; code: number; sec: string; message: string; date: number };
}

/** An answer that is not a success, with its error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${status} ${body.error.sec}: ${body.error.message}`);
  }
}

export type Api = ReturnType<typeof connect>;

/**
 * An operation's JSON body. Bodies are written `satisfies Body<...>` because openapi-fetch alone lets an unknown
 * (misspelt) field through once the required ones are there (openapi-ts/openapi-typescript#1769).
 */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** A client for the service at `baseUrl`; the token is needed for everything but the health checks. */
export function connect(baseUrl: string, token?: string) {
  return createClient<paths>({ baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** The success body, or an ApiError for any other answer. */
async function unwrap<T>(call: Promise<{ data?: T; error?: ErrorBody; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error!);
  return data as T;
}

/** The service's own checks: no token needed. */
export function health(api: Api) {
  return {
    live: async () => (await unwrap(api.GET('/health/live'))).status,
    ready: async () => (await unwrap(api.GET('/health/ready'))).status,
  };
}

/** Every operation on one workspace (the contract's "team"). */
export function workspace(api: Api, team_id: string) {
  const template = (template_id: string) => ({ params: { path: { team_id, template_id } } });
  const page = (page_id: string) => ({ params: { path: { team_id, page_id } } });
  const card = (card_id: string) => ({ params: { path: { team_id, card_id } } });
  const templatePath = '/v1/{team_id}/notes/templates/{template_id}';
  const pagePath = '/v1/{team_id}/pages/{page_id}';
  const tagsPath = '/v1/{team_id}/cards/{card_id}/tags';

  return {
    getTemplate: async (id: string) => (await unwrap(api.GET(templatePath, template(id)))).note_template,

    /** Retitles a template and replaces its sections, clearing its instructions (null reads back as ""). */
    rewriteTemplate: async (id: string, title: string, sections: Array<{ title: string; description?: string }>) =>
      (
        await unwrap(
          api.PATCH(templatePath, {
            ...template(id),
            body: { title, sections, context: null } satisfies Body<typeof templatePath, 'patch'>,
          }),
        )
      ).note_template,

    listTemplates: async (query: { limit?: number; cursor?: string } = {}) =>
      unwrap(api.GET('/v1/{team_id}/notes/templates', { params: { path: { team_id }, query } })),

    /** Creates a template the caller owns; the service picks its id. */
    createTemplate: async (title: string, sections: Array<{ title: string; description?: string }>) =>
      (
        await unwrap(
          api.POST('/v1/{team_id}/notes/templates', {
            params: { path: { team_id } },
            body: { title, sections } satisfies Body<'/v1/{team_id}/notes/templates', 'post'>,
          }),
        )
      ).note_template,

    /** Deletes a template the caller owns; 204. */
    deleteTemplate: async (id: string): Promise<void> => unwrap(api.DELETE(templatePath, template(id))),

    // No conditional read (If-None-Match, 304): the document declares neither that parameter nor the ETag header yet
    getPage: async (id: string) => (await unwrap(api.GET(pagePath, page(id)))).page,

    /** Changes the page's own fields: title, font, an emoji icon, a cover. */
    restylePage: async (id: string, title: string, emoji: string) =>
      (
        await unwrap(
          api.PATCH(pagePath, {
            ...page(id),
            body: {
              title,
              font: 'serif',
              icon: { type: 'emoji', src: emoji },
              cover_image: { type: 'image', src: 'https://example.com/cover.png', positionY: 40, object_fit: 'cover' },
            } satisfies Body<typeof pagePath, 'patch'>,
          }),
        )
      ).page,

    /** Takes the icon and the cover off (null clears a field). */
    clearPageImages: async (id: string) =>
      (
        await unwrap(
          api.PATCH(pagePath, {
            ...page(id),
            body: { icon: null, cover_image: null } satisfies Body<typeof pagePath, 'patch'>,
          }),
        )
      ).page,

    /** Moves the page, with its subpages, under `parentId` at the 0-based `position` ("" for the project root). */
    movePage: async (id: string, parentId: string, position: number) =>
      (
        await unwrap(
          api.PATCH(pagePath, {
            ...page(id),
            body: { parent_page_id: parentId, position } satisfies Body<typeof pagePath, 'patch'>,
          }),
        )
      ).page,

    /** Archives the page and its subpages (the operation takes no body). */
    archivePage: async (id: string) => (await unwrap(api.PUT('/v1/{team_id}/pages/{page_id}/archive', page(id)))).page,

    listPages: async (query: { project_id?: string; parent_page_id?: string; limit?: number; cursor?: string }) =>
      unwrap(api.GET('/v1/{team_id}/pages', { params: { path: { team_id }, query } })),

    /** Creates a page in a project, last under `parentId` ("" or absent: at the project's root). */
    createPage: async (projectId: string, title: string, parentId?: string) =>
      (
        await unwrap(
          api.POST('/v1/{team_id}/pages', {
            params: { path: { team_id } },
            body: { project_id: projectId, title, parent_page_id: parentId } satisfies Body<
              '/v1/{team_id}/pages',
              'post'
            >,
          }),
        )
      ).page,

    /** Copies the page (with `recursive`, its active subpages too), by default right after it. */
    copyPage: async (id: string, title: string, recursive: boolean) =>
      (
        await unwrap(
          api.POST('/v1/{team_id}/pages/{page_id}/copy', {
            ...page(id),
            body: { title, recursive } satisfies Body<'/v1/{team_id}/pages/{page_id}/copy', 'post'>,
          }),
        )
      ).page,

    /** Deletes the page and its whole subtree for good; 204. */
    deletePage: async (id: string): Promise<void> => unwrap(api.DELETE(pagePath, page(id))),

    getCard: async (id: string) => (await unwrap(api.GET('/v1/{team_id}/cards/{card_id}', card(id)))).card,

    /** Attaches existing tags; 204, so nothing to return. */
    tagCard: async (id: string, tagIds: string[]): Promise<void> =>
      unwrap(api.POST(tagsPath, { ...card(id), body: { ids: tagIds } satisfies Body<typeof tagsPath, 'post'> })),

    /** Takes a tag off a card; 204. */
    untagCard: async (id: string, tagId: string): Promise<void> =>
      unwrap(
        api.DELETE('/v1/{team_id}/cards/{card_id}/tags/{tag_id}', {
          params: { path: { team_id, card_id: id, tag_id: tagId } },
        }),
      ),

    listTags: async (query: { project_id?: string; all?: boolean; limit?: number; cursor?: string }) =>
      unwrap(api.GET('/v1/{team_id}/tags', { params: { path: { team_id }, query } })),

    createTag: async (name: string, color: string, projectId?: string) =>
      (
        await unwrap(
          api.POST('/v1/{team_id}/tags', {
            params: { path: { team_id } },
            body: { name, color, project_id: projectId } satisfies Body<'/v1/{team_id}/tags', 'post'>,
          }),
        )
      ).tag,

    renameTag: async (tagId: string, name: string) =>
      (
        await unwrap(
          api.PATCH('/v1/{team_id}/tags/{tag_id}', {
            params: { path: { team_id, tag_id: tagId } },
            body: { name } satisfies Body<'/v1/{team_id}/tags/{tag_id}', 'patch'>,
          }),
        )
      ).tag,

    deleteTag: async (tagId: string): Promise<void> =>
      unwrap(api.DELETE('/v1/{team_id}/tags/{tag_id}', { params: { path: { team_id, tag_id: tagId } } })),
  };
}
