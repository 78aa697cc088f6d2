import { NumericIdParam } from '../common/numeric-id-param';

export const PageIdParam = () => NumericIdParam('page_id', 'Numerical string identifying a page');
