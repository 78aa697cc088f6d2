/** A response body and the ETag of the version it shows: VersionedExpressAdapter sends the one with the other. */
export class Versioned<T> {
  constructor(
    readonly body: T,
    readonly etag: string,
    /** Where a resource just created lives: sent as the Location header. */
    readonly location?: string,
  ) {}

  map<U>(wrap: (body: T) => U): Versioned<U> {
    return new Versioned(wrap(this.body), this.etag, this.location);
  }
}
