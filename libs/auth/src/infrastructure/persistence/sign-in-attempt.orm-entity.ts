import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'sign_in_attempts' })
export class SignInAttemptOrmEntity {
  /** SHA-256 (hex) of the OAuth `state` value. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text', nullable: true })
  nonce: string | null;

  @Column({ name: 'code_verifier', type: 'text' })
  codeVerifier: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
