import { NumericIdParam } from '../common/numeric-id-param';

export const CardIdParam = () => NumericIdParam('card_id', 'Numerical string identifying a card');
