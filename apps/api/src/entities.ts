import { AUTH_ENTITIES } from '@app/auth';
import { PORTFOLIO_ENTITIES } from '@app/portfolio';

/** The TypeORM entity classes every context contributes; the composition root hands them to persistence. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: Function[] = [...AUTH_ENTITIES, ...PORTFOLIO_ENTITIES];
