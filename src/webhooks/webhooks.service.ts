import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { AppConfig } from '../config/app-config';
import { Sql } from '../database/sql';
import { WriteConditions } from '../safe-writes/write-conditions';
import { Announcer } from '../write-path/announcer';
import { WriteSequence } from '../write-path/write-sequence';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { CreatedWebhookDto, DeliveryAttemptDto, WebhookDto } from './dto/webhook.response';
import { hostOf, nonPublicRange, resolveAll } from './public-address';
import { WebhookErrors } from './webhook-errors';
import { ALL_EVENTS, EVENT_TYPES } from './webhook-events';
import {
  CREATE_WEBHOOK,
  LOCK_WEBHOOK_LIST,
  CreatedWebhookRow,
  DELETE_WEBHOOK,
  LIST_ATTEMPTS,
  LIST_WEBHOOKS,
  READ_WEBHOOK,
  WebhookRow,
} from './webhook-queries';
import { newWebhookSecret, WebhookSecrets } from './webhook-secrets';

/** A workspace has at most this many webhooks: each change is delivered once per webhook. */
export const WEBHOOKS_MAX = 25;
/** The deliveries log shows this many attempts, newest first. */
export const ATTEMPTS_SHOWN = 100;
/** A name that does not resolve within this long is refused. */
const RESOLVE_TIMEOUT_MS = 5000;

const KNOWN_EVENTS: ReadonlySet<string> = new Set([...EVENT_TYPES, ALL_EVENTS]);

/** Subscriptions and their deliveries log; who may manage them is checked before (owner and admin). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly secrets: WebhookSecrets,
    private readonly announcer: Announcer,
    private readonly writes: WriteSequence,
  ) {}

  async create(
    caller: Caller,
    teamId: string,
    body: CreateWebhookDto,
    conditions: WriteConditions,
  ): Promise<CreatedWebhookDto> {
    const kept = conditions.kept<CreatedWebhookRow>();
    if (kept) return this.created(kept);
    const unknown = body.events.find((type) => !KNOWN_EVENTS.has(type));
    if (unknown !== undefined) throw WebhookErrors.unknownEvent(unknown);
    await this.assertPublic(new URL(body.url));
    const events = body.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(body.events)];
    const created = await this.writes.run({
      conditions,
      statement: CREATE_WEBHOOK,
      params: {
        teamId,
        callerId: caller.userId,
        url: body.url,
        events,
        description: body.description ?? '',
        sealedSecret: this.secrets.seal(newWebhookSecret()),
        actor: JSON.stringify(caller.actor),
        max: WEBHOOKS_MAX,
      },
      alwaysLocks: true,
      lock: (tx) => tx.query(LOCK_WEBHOOK_LIST, { teamId }),
      answer: (row) => this.created(row!), // the statement always returns its row
    });
    this.announcer.noteSubscribed(teamId); // saves this process's next write there a refused quiet form
    return created;
  }

  /** The creation's answer, the only one with the secret: from the row CREATE_WEBHOOK wrote or kept. */
  private created(row: CreatedWebhookRow): CreatedWebhookDto {
    const { id, sealed_secret } = row;
    if (id === null) throw WebhookErrors.tooMany(WEBHOOKS_MAX);
    return { ...view({ ...row, id }), secret: this.secrets.open(sealed_secret) };
  }

  async list(teamId: string): Promise<WebhookDto[]> {
    return (await this.db.query(LIST_WEBHOOKS, { teamId })).map(view);
  }

  async get(teamId: string, webhookId: string): Promise<WebhookDto> {
    const [row] = fitsBigint(webhookId) ? await this.db.query(READ_WEBHOOK, { teamId, webhookId }) : [];
    if (!row) throw WebhookErrors.notFound(webhookId);
    return view(row);
  }

  async delete(caller: Caller, teamId: string, webhookId: string, conditions: WriteConditions): Promise<void> {
    if (!fitsBigint(webhookId)) throw WebhookErrors.notFound(webhookId);
    await this.writes.run({
      conditions,
      statement: DELETE_WEBHOOK,
      params: { teamId, webhookId, callerId: caller.userId },
      lock: () => Promise.resolve(undefined),
      answer: (row) => {
        if (!row?.deleted) throw WebhookErrors.notFound(webhookId);
      },
    });
  }

  async deliveries(teamId: string, webhookId: string): Promise<DeliveryAttemptDto[]> {
    await this.get(teamId, webhookId);
    return this.db.query(LIST_ATTEMPTS, { teamId, webhookId, limit: ATTEMPTS_SHOWN });
  }

  /** Refuses a URL whose host is, or resolves to, a non-public address (the worker checks again when sending). */
  private async assertPublic(url: URL): Promise<void> {
    if (this.config.webhooks.allowPrivateUrls) return;
    const host = hostOf(url);
    let addresses: string[];
    try {
      addresses = await withTimeout(resolveAll(host), RESOLVE_TIMEOUT_MS);
    } catch {
      throw WebhookErrors.urlUnresolvable(host);
    }
    for (const address of addresses) {
      const range = nonPublicRange(address);
      if (range !== null) throw WebhookErrors.urlRefused(host, address, range);
    }
  }
}

function view(row: WebhookRow): WebhookDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    time_created: row.time_created,
    user: row.user,
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
