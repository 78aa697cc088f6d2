import { Matches } from 'class-validator';

/** The shape of one kind of id, as its table's CHECK has it. */
export interface IdShape {
  readonly pattern: RegExp;
  /** The longest value the pattern admits, for the OpenAPI document. */
  readonly maxLength: number;
  /** Completes "<field> must be ..." in the 400 that refuses it. */
  readonly mustBe: string;
}

/** Workspaces ("teams"). */
export const TEAM_ID_SHAPE: IdShape = {
  pattern: /^[A-Za-z0-9]{1,64}$/,
  maxLength: 64,
  mustBe: '1 to 64 letters or digits',
};

/** Ids people choose: projects and note templates share this shape. */
const NAME_ID_SHAPE: IdShape = {
  pattern: /^[A-Za-z0-9_-]{1,64}$/,
  maxLength: 64,
  mustBe: '1 to 64 letters, digits, "_" or "-"',
};
export const PROJECT_ID_SHAPE = NAME_ID_SHAPE;
export const TEMPLATE_ID_SHAPE = NAME_ID_SHAPE;

/** Page, card and tag ids: numerical strings that name a PostgreSQL bigint. */
export const NUMERIC_ID_SHAPE: IdShape = {
  pattern: /^[0-9]{1,19}$/,
  maxLength: 19,
  mustBe: 'a numerical string of 1 to 19 digits',
};

/** A patch's parent_page_id: "" (the project's root) or a page id. */
export const PARENT_PAGE_ID_SHAPE: IdShape = {
  pattern: /^(|[0-9]{1,19})$/,
  maxLength: 19,
  mustBe: `"" or ${NUMERIC_ID_SHAPE.mustBe}`,
};

/** A body field of this shape; the 400 names the field. */
export const MatchesIdShape = (shape: IdShape) =>
  Matches(shape.pattern, { message: `$property must be ${shape.mustBe}` });
