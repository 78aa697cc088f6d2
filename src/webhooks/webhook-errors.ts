import { DomainError } from '../errors/domain-error';

export const WebhookErrors = {
  notFound: (id: string) => new DomainError('WEBHOOK_NOT_FOUND', `Webhook ${id} was not found`),
  unknownEvent: (type: string) =>
    new DomainError('WEBHOOK_EVENT_UNKNOWN', `events names ${JSON.stringify(type)}, which is not an event type`),
  urlRefused: (host: string, address: string, range: string) =>
    new DomainError(
      'WEBHOOK_URL_REFUSED',
      `url host ${host} resolves to ${address}, a ${range} address; webhooks are delivered to public addresses only`,
    ),
  urlUnresolvable: (host: string) =>
    new DomainError('WEBHOOK_URL_UNRESOLVABLE', `url host ${host} could not be resolved to an address`),
  tooMany: (limit: number) =>
    new DomainError('WEBHOOK_LIMIT_REACHED', `The workspace already has ${limit} webhooks, the most it may have`),
};
