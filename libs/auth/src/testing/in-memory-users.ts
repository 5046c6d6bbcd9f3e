import { Users } from '../application/users.port.js';
import type { User } from '../domain/user.js';
import type { VerifiedIdentity } from '../domain/verified-identity.js';

export class InMemoryUsers extends Users {
  readonly rows: User[] = [];

  async recordSignIn(identity: VerifiedIdentity, at: Date): Promise<User> {
    let user = this.rows.find((row) => row.email === identity.email);
    if (user === undefined) {
      user = { id: this.rows.length + 1, email: identity.email, name: identity.name, createdAt: at, lastLogin: at };
      this.rows.push(user);
    } else {
      user.lastLogin = at;
      user.name = identity.name ?? user.name;
    }
    return { ...user };
  }

  async findById(id: number): Promise<User | null> {
    const user = this.rows.find((row) => row.id === id);
    return user === undefined ? null : { ...user };
  }
}
