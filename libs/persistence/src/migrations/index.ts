import { CreateUsers1763700000000 } from './1763700000000-create-users.js';

/** Every migration, oldest first. A new migration is added here as well as in its own file. */
export const MIGRATIONS = [CreateUsers1763700000000];
