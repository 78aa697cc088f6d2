import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TokenActor } from '../common/actor';

@Entity({ name: 'tokens' })
export class Token {
  @PrimaryColumn({ name: 'team_id', type: 'text' })
  teamId: string;

  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ name: 'token_hash', type: 'bytea' })
  tokenHash: Buffer;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ type: 'jsonb' })
  actor: TokenActor;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'time_created', type: 'timestamptz', insert: false, update: false })
  timeCreated: Date;
}
