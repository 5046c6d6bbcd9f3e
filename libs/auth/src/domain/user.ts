/** Someone who has signed in at least once. */
export interface User {
  id: number;
  email: string;
  name: string | null;
  createdAt: Date;
  lastLogin: Date | null;
}

/** The brokerage account a user's imported data belongs to; `accountId` is the service's own key. */
export interface BrokerageAccount {
  accountId: number;
  accountNumber: string;
}
