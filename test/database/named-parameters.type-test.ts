/**
 * Checked by `npm run typecheck`, never run (jest's testMatch leaves it out): a statement's call passes
 * an object with exactly the names its params interface declares. A @ts-expect-error line that compiles
 * is itself an error, so each case below must fail for the reason it names.
 */
import type { SqlSession } from '../../src/database/statement';
import { READ_PAGE } from '../../src/pages/page-queries';
import { WRITE_TEMPLATE } from '../../src/notes/note-template-queries';
import { Announcer } from '../../src/write-path/announcer';

export async function _calls(tx: SqlSession): Promise<void> {
  // Every name, and nothing else.
  await tx.query(READ_PAGE, { teamId: 't', pageId: '1', callerId: 'u' });

  // @ts-expect-error callerId is missing
  await tx.query(READ_PAGE, { teamId: 't', pageId: '1' });

  // @ts-expect-error pageID is not a name the statement takes
  await tx.query(READ_PAGE, { teamId: 't', pageId: '1', callerId: 'u', pageID: '1' });

  // @ts-expect-error a value of another type: pageId is a string
  await tx.query(READ_PAGE, { teamId: 't', pageId: 1, callerId: 'u' });

  // A write statement's forms take its own names and the key's.
  const fields = { title: null, context: null, sections: null, icon: null, aiActions: null, isShared: null };
  const write = { teamId: 't', templateId: '1', callerId: 'u', actor: '{}', ...fields };
  await new Announcer().write(tx, WRITE_TEMPLATE, { ...write, idempotencyKey: null, keyClaim: null });

  // @ts-expect-error the key's names are missing
  await new Announcer().write(tx, WRITE_TEMPLATE, write);
}
