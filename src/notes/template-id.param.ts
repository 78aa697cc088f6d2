import { PathParam } from '../common/path-param';

/** Note template ids (and project ids, which have the same shape). */
export const TEMPLATE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const TemplateIdParam = () =>
  PathParam('template_id', { pattern: TEMPLATE_ID_PATTERN, description: 'The note template', mustBe: '1 to 64 letters, digits, "_" or "-"' });
