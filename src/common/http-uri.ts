import { isURL, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * RFC 3986 characters, with at most one "#": what OpenAPI's `format: uri` accepts. isURL alone also
 * takes IRIs and stray characters ("https://ex.com/😀", "{", "|", "%zz"), which a response could then
 * not carry as a `uri`.
 */
const URI_CHARACTERS =
  /^(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*(?:#(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)?$/;
/** Brackets belong only around an IPv6 host. */
const IP_LITERAL_HOST = /^(https?:\/\/(?:[^@/?#]*@)?)\[[0-9A-Fa-f:.]+\]/i;

/** An absolute http(s) URL that is also a URI (non-ASCII characters percent-encoded). */
export const IsHttpUri = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHttpUri',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          isURL(value, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }) &&
          URI_CHARACTERS.test(value.replace(IP_LITERAL_HOST, '$1ip')),
        defaultMessage: () =>
          '$property must be an absolute http(s) URL, with characters outside RFC 3986 percent-encoded',
      },
    },
    options,
  );
