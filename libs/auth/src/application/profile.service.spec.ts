import { ValidationError } from '@app/shared';
import { InMemoryBrokerageAccounts } from '../testing/in-memory-brokerage-accounts.js';
import { InMemoryUsers } from '../testing/in-memory-users.js';
import { ProfileService } from './profile.service.js';

describe('ProfileService', () => {
  const at = new Date('2026-03-02T09:00:00Z');
  let users: InMemoryUsers;
  let accounts: InMemoryBrokerageAccounts;
  let profiles: ProfileService;
  let userId: number;

  beforeEach(async () => {
    users = new InMemoryUsers();
    accounts = new InMemoryBrokerageAccounts();
    profiles = new ProfileService(users, accounts);
    userId = (await users.recordSignIn({ email: 'demo@example.com', name: 'Demo' }, at)).id;
  });

  it('shows no brokerage account until one is set', async () => {
    expect(await profiles.profileOf(userId)).toEqual({
      email: 'demo@example.com',
      name: 'Demo',
      brokerageAccount: null,
      accountId: null,
      createdAt: at,
      lastLogin: at,
    });
  });

  it('sets the account number, cleaned up, and keeps the account id when it changes', async () => {
    const set = await profiles.setBrokerageAccount(userId, ' 1234-5678 ');
    expect(set).toMatchObject({ brokerageAccount: '1234-5678', accountId: expect.any(Number) });
    const changed = await profiles.setBrokerageAccount(userId, 'XXXX-0001');
    expect(changed).toMatchObject({ brokerageAccount: 'XXXX-0001', accountId: set.accountId });
    expect(await accounts.findForUser(userId)).toEqual({ accountId: set.accountId, accountNumber: 'XXXX-0001' });
  });

  it('refuses an invalid number and keeps the old one', async () => {
    await profiles.setBrokerageAccount(userId, '1234');
    await expect(profiles.setBrokerageAccount(userId, '<b>')).rejects.toBeInstanceOf(ValidationError);
    expect((await profiles.profileOf(userId)).brokerageAccount).toBe('1234');
  });
});
