import { BrokerageAccountOrmEntity } from './brokerage-account.orm-entity.js';
import { SessionOrmEntity } from './session.orm-entity.js';
import { SignInAttemptOrmEntity } from './sign-in-attempt.orm-entity.js';
import { UserOrmEntity } from './user.orm-entity.js';

/** The auth context's tables, for the composition root's entity list. */
export const AUTH_ENTITIES = [UserOrmEntity, SessionOrmEntity, SignInAttemptOrmEntity, BrokerageAccountOrmEntity];
