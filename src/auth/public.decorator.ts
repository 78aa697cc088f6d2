import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Opts a route out of authentication. Only health checks use it. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
