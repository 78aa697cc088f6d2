import { CreateWorkspaces0000000000001 } from './0001-create-workspaces';
import { CreateNoteTemplates0000000000002 } from './0002-create-note-templates';
import { CreatePages0000000000003 } from './0003-create-pages';
import { CreateCards0000000000004 } from './0004-create-cards';
import { NotifyAuthChanges0000000000005 } from './0005-notify-auth-changes';
import { CountSiblingsInBlocks0000000000006 } from './0006-count-siblings-in-blocks';
import { VersionsAndIdempotencyKeys0000000000007 } from './0007-versions-and-idempotency-keys';
import { CreateWebhooks0000000000008 } from './0008-create-webhooks';
import { CreateWebhookStreams0000000000009 } from './0009-create-webhook-streams';
import { ClaimTimes0000000000010 } from './0010-claim-times';
import { IdCounters0000000000011 } from './0011-id-counters';
import { TagNamesAndVersions0000000000012 } from './0012-tag-names-and-versions';
import { SiblingBlocksOnlyOnMoves0000000000013 } from './0013-sibling-blocks-only-on-moves';
import { PageListIndexes0000000000014 } from './0014-page-list-indexes';
import { PublicPageAliases0000000000015 } from './0015-public-page-aliases';
import { OnePagePerAlias0000000000016 } from './0016-one-page-per-alias';
import { SubtreeDeletesSetWise0000000000017 } from './0017-subtree-deletes-set-wise';
import { EventTraceParents0000000000018 } from './0018-event-trace-parents';
import { IdCountersLastCount0000000000019 } from './0019-id-counters-last-count';
import { PageDeletionsLogInTwoSteps0000000000020 } from './0020-page-deletions-log-in-two-steps';
import { TagNamesOnEveryPostgres0000000000021 } from './0021-tag-names-on-every-postgres';
import { CardWritesAsFunctions0000000000022 } from './0022-card-writes-as-functions';

/** Every migration, in order. Listed explicitly so the compiled app, the CLI and ts-jest all load the same set. */
export const MIGRATIONS = [
  CreateWorkspaces0000000000001,
  CreateNoteTemplates0000000000002,
  CreatePages0000000000003,
  CreateCards0000000000004,
  NotifyAuthChanges0000000000005,
  CountSiblingsInBlocks0000000000006,
  VersionsAndIdempotencyKeys0000000000007,
  CreateWebhooks0000000000008,
  CreateWebhookStreams0000000000009,
  ClaimTimes0000000000010,
  IdCounters0000000000011,
  TagNamesAndVersions0000000000012,
  SiblingBlocksOnlyOnMoves0000000000013,
  PageListIndexes0000000000014,
  PublicPageAliases0000000000015,
  OnePagePerAlias0000000000016,
  SubtreeDeletesSetWise0000000000017,
  EventTraceParents0000000000018,
  IdCountersLastCount0000000000019,
  PageDeletionsLogInTwoSteps0000000000020,
  TagNamesOnEveryPostgres0000000000021,
  CardWritesAsFunctions0000000000022,
];
