import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'brokerage_accounts' })
export class BrokerageAccountOrmEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
