import { NumericIdParam } from '../common/numeric-id-param';

export const TagIdParam = () => NumericIdParam('tag_id', 'Numerical string identifying a tag');
