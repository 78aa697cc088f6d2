import { TEMPLATE_ID_SHAPE } from '../common/id-shapes';
import { PathParam } from '../common/path-param';

export const TemplateIdParam = () =>
  PathParam('template_id', { ...TEMPLATE_ID_SHAPE, description: 'The note template' });
