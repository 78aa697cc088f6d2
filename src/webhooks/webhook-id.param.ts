import { NumericIdParam } from '../common/numeric-id-param';

export const WebhookIdParam = () => NumericIdParam('webhook_id', 'Numerical string identifying a webhook');
