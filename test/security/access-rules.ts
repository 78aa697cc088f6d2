import {
  CARD_ID,
  DELETABLE_TAG_IDS,
  IsolationScene,
  PAGE_ID,
  Person,
  PEOPLE,
  ROLE_OF,
  TAG_IDS,
  TEMPLATE_KINDS,
  TemplateKind,
} from './isolation-scene';

/**
 * The axes of the isolation matrix and, from decisions.md ("Callers", "Note templates", "Errors"),
 * the outcome of every cell. Kept apart from the spec so the rules read as a table.
 */

export type Target = 'home' | 'twin';
export const TARGETS: Target[] = ['home', 'twin'];

export interface CallerSpec {
  /** The Authorization header to send, or none. */
  authorization: (s: IsolationScene) => string | undefined;
  /** Whom a valid token acts for, and in which workspace; absent for callers that cannot authenticate. */
  acts?: { team: Target | 'stranger'; person: Person | 'stranger' };
}

export const CALLERS = {
  ...(Object.fromEntries(
    PEOPLE.map((p) => [
      p,
      { authorization: (s: IsolationScene) => `Bearer ${s.secrets[p]}`, acts: { team: 'home', person: p } },
    ]),
  ) as Record<Person, CallerSpec>),
  /** The home owner's own token, but issued for the twin workspace (where the owner is owner too). */
  twinToken: { authorization: (s) => `Bearer ${s.secrets.twinOwner}`, acts: { team: 'twin', person: 'owner' } },
  /** The owner of a third workspace, a member of neither twin. */
  stranger: { authorization: (s) => `Bearer ${s.secrets.stranger}`, acts: { team: 'stranger', person: 'stranger' } },
  expired: { authorization: (s) => `Bearer ${s.secrets.expired}` },
  revoked: { authorization: (s) => `Bearer ${s.secrets.revoked}` },
  /** A valid owner secret under another scheme. */
  malformedScheme: { authorization: (s) => `Token ${s.secrets.owner}` },
  malformedBearer: { authorization: () => 'Bearer' },
  none: { authorization: () => undefined },
} satisfies Record<string, CallerSpec>;
export type CallerName = keyof typeof CALLERS;
export const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];

export interface RouteSpec {
  name: string;
  method: 'get' | 'patch' | 'put' | 'post' | 'delete';
  resource: 'template' | 'page' | 'card' | 'tag' | 'page-list';
  write: boolean;
  /** `n`: the cell's index among its route's cells, for a route whose cells each need a resource of their own. */
  path: (teamId: string, kind: TemplateKind | null, n: number) => string;
  /**
   * The body of the route's n-th cell: distinct per cell, so that every write really changes something
   * (each tagging cell has a tag of its own).
   */
  body?: (n: number) => object;
  successStatus: 200 | 201 | 204;
}

const templatePath = (teamId: string, kind: TemplateKind | null) =>
  `/v1/${teamId}/notes/templates/${TEMPLATE_KINDS[kind!].id}`;

export const ROUTES: RouteSpec[] = [
  {
    name: 'PATCH note template',
    method: 'patch',
    resource: 'template',
    write: true,
    path: templatePath,
    body: (n) => ({ title: `Cell ${n}` }),
    successStatus: 200,
  },
  {
    name: 'GET note template',
    method: 'get',
    resource: 'template',
    write: false,
    path: templatePath,
    successStatus: 200,
  },
  {
    name: 'PATCH page',
    method: 'patch',
    resource: 'page',
    write: true,
    path: (t) => `/v1/${t}/pages/${PAGE_ID}`,
    body: (n) => ({ title: `Cell ${n}` }),
    successStatus: 200,
  },
  {
    name: 'GET page',
    method: 'get',
    resource: 'page',
    write: false,
    path: (t) => `/v1/${t}/pages/${PAGE_ID}`,
    successStatus: 200,
  },
  {
    name: 'PUT page archive',
    method: 'put',
    resource: 'page',
    write: true,
    path: (t) => `/v1/${t}/pages/${PAGE_ID}/archive`,
    successStatus: 200,
  },
  {
    name: 'POST card tags',
    method: 'post',
    resource: 'card',
    write: true,
    path: (t) => `/v1/${t}/cards/${CARD_ID}/tags`,
    body: (n) => ({ id: TAG_IDS[n] }),
    successStatus: 204,
  },
  {
    name: 'GET card',
    method: 'get',
    resource: 'card',
    write: false,
    path: (t) => `/v1/${t}/cards/${CARD_ID}`,
    successStatus: 200,
  },
  // After POST card tags: each cell takes off the tag its counterpart of that route attached.
  {
    name: 'DELETE card tag',
    method: 'delete',
    resource: 'card',
    write: true,
    path: (t, _k, n) => `/v1/${t}/cards/${CARD_ID}/tags/${TAG_IDS[n]}`,
    successStatus: 204,
  },
  {
    name: 'GET tags',
    method: 'get',
    resource: 'tag',
    write: false,
    path: (t) => `/v1/${t}/tags?limit=500`,
    successStatus: 200,
  },
  {
    name: 'POST tag',
    method: 'post',
    resource: 'tag',
    write: true,
    path: (t) => `/v1/${t}/tags`,
    body: (n) => ({ name: `Cell ${n}`, color: 'red' }),
    successStatus: 201,
  },
  {
    name: 'PATCH tag',
    method: 'patch',
    resource: 'tag',
    write: true,
    path: (t, _k, n) => `/v1/${t}/tags/${TAG_IDS[n]}`,
    body: (n) => ({ name: `Renamed ${n}` }),
    successStatus: 200,
  },
  {
    name: 'DELETE tag',
    method: 'delete',
    resource: 'tag',
    write: true,
    path: (t, _k, n) => `/v1/${t}/tags/${DELETABLE_TAG_IDS[n]}`,
    successStatus: 204,
  },
  {
    name: 'GET pages',
    method: 'get',
    resource: 'page-list',
    write: false,
    path: (t) => `/v1/${t}/pages`,
    successStatus: 200,
  },
];

export type Expectation = { allowed: true } | { allowed: false; error: 'UNAUTHENTICATED' | 'ACCESS_DENIED' };

/** Who may do what, as decisions.md says it. */
export function expectedOutcome(
  route: RouteSpec,
  kind: TemplateKind | null,
  caller: CallerName,
  target: Target,
): Expectation {
  const acts = (CALLERS[caller] as CallerSpec).acts;
  const denied = { allowed: false, error: 'ACCESS_DENIED' } as const;
  // A missing, malformed, unknown, expired or revoked token: 401, whatever the resource.
  if (!acts) return { allowed: false, error: 'UNAUTHENTICATED' };
  // A token works only in its own workspace, even for a user who is a member of the other one.
  if (acts.team !== target || acts.person === 'stranger') return denied;
  const role = ROLE_OF[acts.person];
  const allowed = { allowed: true } as const;
  if (route.resource === 'template') {
    const template = TEMPLATE_KINDS[kind!];
    const ownsIt = template.owner === acts.person;
    // Roles come first: a viewer writes nothing, not even its own template; otherwise only the owner writes.
    if (route.write) return role !== 'viewer' && ownsIt ? allowed : denied;
    return ownsIt || template.owner === null || template.shared ? allowed : denied;
  }
  if (route.write && role === 'viewer') return denied;
  // Every member lists tags; only owners, admins and members create, change and delete them.
  if (route.resource === 'tag') return route.write && role === 'guest' ? denied : allowed;
  // Every member lists pages; a guest's list holds only the pages that list them.
  if (route.resource === 'page-list') return allowed;
  // The page and the card list guestListed (and the owner) as members; a guest reaches only those.
  if (role === 'guest' && acts.person !== 'guestListed') return denied;
  return allowed;
}
